/** A scripted chat model's first move in the egress tests: ask for every tool category, then call every offered tool once with each of its argument sets. */

export interface OfferedTools {
  tools?: { function: { name: string; parameters: { properties?: Record<string, { items?: { enum?: string[] } }> } } }[];
}

/** The tool calls for this request; `called` remembers the tools already called across requests. Empty once every offered tool has been called. */
export function callEveryTool(request: OfferedTools, argsFor: Record<string, unknown[]>, called: Set<string>): { name: string; arguments: string }[] {
  const calls: { name: string; arguments: string }[] = [];
  for (const tool of (request.tools ?? []).map((t) => t.function)) {
    if (tool.name === 'request_tools') {
      const categories = tool.parameters.properties?.categories?.items?.enum ?? [];
      if (categories.length) calls.push({ name: 'request_tools', arguments: JSON.stringify({ categories }) });
      continue;
    }
    if (called.has(tool.name)) continue;
    called.add(tool.name);
    for (const args of argsFor[tool.name] ?? [{}]) calls.push({ name: tool.name, arguments: JSON.stringify(args) });
  }
  return calls;
}
