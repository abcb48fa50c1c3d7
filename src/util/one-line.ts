/**
 * Text for one line of a generated Markdown list or a trace: every run of white space,
 * line breaks included, becomes one space, and the ends are trimmed. Written once here: a
 * line break in a title, a tag or a message would otherwise start a new list item.
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The title a page has when its front matter names none: `People/Sarah-Chen.md` → `Sarah Chen`. */
export function titleFromPath(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.md$/i, '').replace(/-/g, ' ');
}
