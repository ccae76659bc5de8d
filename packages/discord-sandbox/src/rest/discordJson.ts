/**
 * JSON the way Discord's API writes its error bodies: Python's default separators, `", "` and
 * `": "` (`{"message": "Unknown Member", "code": 10007}`). Clients don't care, but people
 * comparing logs with Discord's do.
 */
export function discordJson(value: unknown): string {
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) return `[${value.map(discordJson).join(', ')}]`;
	const entries = Object.entries(value).filter(([, item]) => item !== undefined);
	return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${discordJson(item)}`).join(', ')}}`;
}
