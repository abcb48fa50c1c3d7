/** Types for the Emscripten factory exported by the npm `espeak-ng` package (it ships none). */
declare module 'espeak-ng' {
  interface EspeakModule {
    FS: { readFile(path: string): Uint8Array };
  }
  const createEspeak: (options: Record<string, unknown>) => Promise<EspeakModule>;
  export default createEspeak;
}
