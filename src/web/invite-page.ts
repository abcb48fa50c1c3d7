/**
 * The page an invite link opens: whom it is for and "Make a passkey" (signin-passkey.ts does the
 * rest), or, when the invite cannot be used, why in plain words. Escaped text only.
 */
import { html } from 'hono/html';
import type { ClientAssets } from './client-build.js';

export function invitePage(assets: ClientAssets, assistantName: string, invite: { name: string } | { error: string }) {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Invite · ${assistantName}</title>
        <link rel="stylesheet" href="${assets.css}" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <script type="module" src="${assets.signin}"></script>
      </head>
      <body class="login">
        <main class="login-box">
          <h1>${assistantName}</h1>
          ${
            'error' in invite
              ? html`<p class="error" role="alert">${invite.error}</p>`
              : html`<section id="passkey-invite" class="passkey" aria-labelledby="invite-title">
                  <h2 id="invite-title">Welcome, ${invite.name}</h2>
                  <p>You are invited to ${assistantName}. Make a passkey on this device: next time you sign in with your fingerprint, face or screen lock, with no password.</p>
                  <button type="button" id="passkey-button" class="primary">Make a passkey</button>
                  <p id="passkey-status" class="passkey-status" role="alert" hidden></p>
                </section>`
          }
        </main>
      </body>
    </html>`;
}
