import type { CallToolResult } from '@modelcontextprotocol/server';

/** Text blocks stay under the 5,000 characters an MCP client may be given in one string. */
const TEXT_BLOCK_CHARS = 4_000;

/**
 * The structured result as JSON text for clients that read only text (the specification's SHOULD),
 * in blocks of at most TEXT_BLOCK_CHARS, with Markdown image and link syntax from site text escaped
 * (`![` and `](` cannot occur outside JSON strings, and \u escapes keep the value) so no client
 * renders or follows a URL a scanned site planted.
 */
export function textBlocks(result: Record<string, unknown>): Array<{ type: 'text'; text: string }> {
  const json = JSON.stringify(result).replaceAll('![', '!\\u005b').replaceAll('](', ']\\u0028');
  const blocks: Array<{ type: 'text'; text: string }> = [];
  for (let at = 0; at < json.length || blocks.length === 0; at += TEXT_BLOCK_CHARS)
    blocks.push({ type: 'text', text: json.slice(at, at + TEXT_BLOCK_CHARS) });
  return blocks;
}

/** A refused call: the Dutch text REST would answer in { error }, as a tool error. */
export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: message }) }] };
}
