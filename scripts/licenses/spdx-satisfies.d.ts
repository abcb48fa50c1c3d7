/** Types for spdx-satisfies 6 (it ships none): does an SPDX expression satisfy one of the allowed licenses? */
declare module 'spdx-satisfies' {
  const satisfies: (expression: string, allowed: string[]) => boolean;
  export default satisfies;
}
