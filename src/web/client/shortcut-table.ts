/**
 * The app's keyboard shortcuts, one table: the key handler (shortcuts.ts) acts on it and the
 * `?` list is made from it, so a new shortcut cannot be missing from the list. No DOM here: the
 * browser test reads the same table.
 */
/** `g` then a key goes to a view of the project in the route. The list on `?` is made from this table too. */
export const GO_TO: readonly { key: string; view: 'chat' | 'inspect' | 'graph' | 'reminders'; name: string }[] = [
  { key: 'c', view: 'chat', name: 'the chat' },
  { key: 'm', view: 'inspect', name: 'the Memory view' },
  { key: 'g', view: 'graph', name: 'the graph' },
  { key: 'r', view: 'reminders', name: 'the Reminders' },
];

/** Every shortcut as `[keys, what it does]`, as the `?` dialog lists them. */
export const SHORTCUT_LIST: readonly (readonly [string, string])[] = [
  ['?', 'Show this list'],
  ['/', 'Search: all conversations of the project, the Memory view’s records, the graph’s pages'],
  ['Enter or Ctrl+Enter', 'Send the message'],
  ['Shift+Enter', 'New line in the message'],
  ['↑', 'Edit your last message (in an empty message box)'],
  ['Esc', 'Stop the reply · close a dialog or the search results'],
  ...GO_TO.map((g) => [`g then ${g.key}`, `Go to ${g.name}`] as const),
];
