/**
 * The passkey part of the sign-in page and the invite page (their only script): "Sign in with
 * a passkey" asks the device for a passkey it holds for this site; "Make a passkey" makes one for
 * the invite in the address. Both go through @simplewebauthn/browser and, when done, open the
 * app; what went wrong is said in plain words under the button.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
  const data = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) throw new Error(data.error ?? 'Charlie could not be reached. Check the connection and try again.');
  return data as T;
}

/** The browser's own refusal, in words: cancelled, timed out, or a passkey already made here. */
function words(e: unknown, making: boolean): string {
  const name = e instanceof Error ? e.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError')
    return making
      ? 'No passkey was made (it was cancelled or took too long). Press the button to try again.'
      : 'No passkey was used (it was cancelled or took too long). Press the button to try again.';
  if (name === 'InvalidStateError') return 'This device already has a passkey for you here: go to the sign-in page and use "Use my passkey".';
  if (name === 'SecurityError') return 'Passkeys work only when Charlie is opened by its name over https (or http://localhost on the computer itself).';
  return e instanceof Error ? e.message : String(e);
}

function wire(section: HTMLElement, making: boolean, run: () => Promise<void>): void {
  const button = section.querySelector<HTMLButtonElement>('#passkey-button');
  const status = section.querySelector<HTMLElement>('#passkey-status');
  if (!button || !status) return;
  const say = (text: string) => {
    status.hidden = false;
    status.textContent = text;
  };
  if (!browserSupportsWebAuthn()) {
    button.disabled = true;
    say('This browser cannot use passkeys. Use a sign-in link instead.');
    return;
  }
  button.addEventListener('click', () => {
    button.disabled = true;
    status.hidden = true;
    run()
      .then(() => location.replace('/'))
      .catch((e: unknown) => {
        say(words(e, making));
        button.disabled = false;
      });
  });
}

type Options<T> = { ceremony: string; options: T };

const invite = document.getElementById('passkey-invite');
if (invite)
  wire(invite, true, async () => {
    const token = new URLSearchParams(location.search).get('token') ?? '';
    const { ceremony, options } = await post<Options<Parameters<typeof startRegistration>[0]['optionsJSON']>>('/auth/invite/options', { token });
    const response = await startRegistration({ optionsJSON: options });
    await post('/auth/invite/verify', { ceremony, response });
  });

const signin = document.getElementById('passkey-signin');
if (signin)
  wire(signin, false, async () => {
    const { ceremony, options } = await post<Options<Parameters<typeof startAuthentication>[0]['optionsJSON']>>('/auth/passkey/options', {});
    const response = await startAuthentication({ optionsJSON: options });
    await post('/auth/passkey/verify', { ceremony, response });
  });
