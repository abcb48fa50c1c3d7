/**
 * The sign-in page: a plain form for a token or link, and "Use my passkey" for the
 * household members the owner invited (its one script is the app's own file, so the CSP stays strict); escaped text only.
 */
import { html } from 'hono/html';
import type { ClientAssets } from './client-build.js';

export function loginPage(assets: ClientAssets, assistantName: string, error?: string) {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Sign in · ${assistantName}</title>
        <link rel="stylesheet" href="${assets.css}" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <script type="module" src="${assets.signin}"></script>
      </head>
      <body class="login">
        <main class="login-box">
          <h1>${assistantName}</h1>
          <section id="passkey-signin" class="passkey" aria-labelledby="passkey-title">
            <h2 id="passkey-title">Household members</h2>
            <p>Sign in with the passkey you made from your invite:</p>
            <button type="button" id="passkey-button" class="primary">Use my passkey</button>
            <p id="passkey-status" class="passkey-status" role="alert" hidden></p>
          </section>
          <p>Open the login link ${assistantName} printed when it started, or the one it sends you with <code>/web</code> in a Discord DM. Or paste the token here:</p>
          ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
          <form method="post" action="/login">
            <label for="token">Token</label>
            <input id="token" name="token" type="password" autocomplete="current-password" required />
            <button type="submit" class="primary">Sign in</button>
          </form>
        </main>
      </body>
    </html>`;
}
