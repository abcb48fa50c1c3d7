/** The sign-in page: a plain form (no script, so the CSP stays strict), escaped text only. */
import { html } from 'hono/html';

export function loginPage(stylesheet: string, assistantName: string, error?: string) {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Sign in · ${assistantName}</title>
        <link rel="stylesheet" href="${stylesheet}" />
        <link rel="manifest" href="/manifest.webmanifest" />
      </head>
      <body class="login">
        <main class="login-box">
          <h1>${assistantName}</h1>
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
