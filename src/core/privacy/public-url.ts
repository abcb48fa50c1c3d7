/**
 * URLs as people may see them: a base URL's user name, password and query (where API keys and
 * passwords go) never reach a banner, a notice, an error or a log line.
 */

/** A URL without user name, password or query: safe for logs, banners and errors. */
export function publicUrl(raw: string): string {
  // git's transport helpers (gcrypt::https://…) wrap a URL of their own
  const helper = /^([A-Za-z][\w+.-]*::)(.+)$/.exec(raw);
  if (helper?.[1] && helper[2]) return helper[1] + publicUrl(helper[2]);
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    url.search = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    return raw.replace(/\/\/[^/@\s]*@/, '//').replace(/\/+$/, '');
  }
}

/** Every URL in a text (an error message that quotes one, a line of doctor output) as its public form. */
export function withPublicUrls(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()]+/gi, (url) => (/[@?]/.test(url) ? publicUrl(url) : url));
}
