/**
 * Code highlighting for replies: highlight.js's core with the few languages a household asks
 * about (shell, JavaScript/TypeScript, Python, JSON, HTML, CSS, SQL, YAML), loaded on demand.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

for (const [name, lang] of Object.entries({ bash, css, javascript, json, python, sql, typescript, xml, yaml })) hljs.registerLanguage(name, lang);
hljs.registerAliases(['sh', 'shell', 'zsh'], { languageName: 'bash' });
hljs.registerAliases(['js'], { languageName: 'javascript' });
hljs.registerAliases(['ts'], { languageName: 'typescript' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['html'], { languageName: 'xml' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });

/** Highlights one `<code>` (its text is re-tokenised; hljs escapes it, so no markup gets in). */
export function highlight(code: HTMLElement): void {
  const named = /language-([\w-]+)/.exec(code.className)?.[1];
  if (named && !hljs.getLanguage(named)) return;
  hljs.highlightElement(code);
}
