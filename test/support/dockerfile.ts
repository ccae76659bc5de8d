/** A Dockerfile's instructions as a test needs them: what the image holds and how it starts. */
export interface Dockerfile {
	/** Each COPY: its sources (relative to the build context) and its destination (relative to WORKDIR). */
	readonly copies: ReadonlyArray<{ readonly sources: readonly string[]; readonly destination: string }>;
	/** Each RUN's shell command. */
	readonly runs: readonly string[];
	/** ENV, every key. */
	readonly env: Readonly<Record<string, string>>;
	/** ENTRYPOINT and CMD, in exec form. */
	readonly entrypoint: readonly string[];
	readonly cmd: readonly string[];
	readonly workdir: string;
	readonly user: string | undefined;
}

/**
 * Reads the instructions the image's contents and start depend on, the way `docker build` does:
 * comments dropped, `\` continuations joined, ENTRYPOINT and CMD in JSON (exec) form. Throws on an
 * instruction it does not know, so a new one is read here before a test trusts the result.
 */
export function parseDockerfile(text: string): Dockerfile {
	const lines = text
		.split('\n')
		.filter((line) => !/^\s*#/.test(line))
		.join('\n')
		.replace(/\\\n/g, ' ')
		.split('\n')
		.map((line) => line.trim())
		.filter(Boolean);
	const copies: Array<{ sources: string[]; destination: string }> = [];
	const runs: string[] = [];
	const env: Record<string, string> = {};
	let entrypoint: string[] = [];
	let cmd: string[] = [];
	let workdir = '/';
	let user: string | undefined;
	for (const line of lines) {
		const [instruction, rest = ''] = [line.slice(0, line.indexOf(' ')).toUpperCase(), line.slice(line.indexOf(' ') + 1).trim()];
		switch (instruction) {
			case 'FROM':
				break;
			case 'WORKDIR':
				workdir = rest;
				break;
			case 'USER':
				user = rest;
				break;
			case 'COPY': {
				const parts = rest.split(/\s+/);
				// --from copies out of another stage or image, which no layout by hand can follow.
				if (parts.some((part) => part.startsWith('--from'))) throw new Error(`the Dockerfile copies from another stage: ${line}`);
				const paths = parts.filter((part) => !part.startsWith('--'));
				copies.push({ sources: paths.slice(0, -1), destination: paths.at(-1)! });
				break;
			}
			case 'RUN':
				runs.push(rest);
				break;
			case 'ENV': {
				// Only the KEY=value form: `ENV KEY value` sets one key to the rest of the line.
				const pairs = [...rest.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)];
				if (pairs.map((pair) => pair[0]).join(' ') !== rest.replace(/\s+/g, ' ')) throw new Error(`the Dockerfile has an ENV this reader does not read: ${line}`);
				for (const [, key, value] of pairs) env[key!] = value!.replace(/^"|"$/g, '');
				break;
			}
			case 'ENTRYPOINT':
				entrypoint = JSON.parse(rest) as string[];
				break;
			case 'CMD':
				cmd = JSON.parse(rest) as string[];
				break;
			default:
				throw new Error(`the Dockerfile has an instruction this reader does not know: ${line}`);
		}
	}
	return { copies, runs, env, entrypoint, cmd, workdir, user };
}
