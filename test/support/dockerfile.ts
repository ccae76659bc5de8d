/** One COPY: its sources and its destination (relative to the stage's WORKDIR). */
export interface DockerCopy {
	readonly kind: 'copy';
	/**
	 * Relative to the build context; with `from`, paths in that stage's file system (absolute,
	 * as `docker build` reads them).
	 */
	readonly sources: readonly string[];
	readonly destination: string;
	/** `--from=<stage>`: the name of an earlier stage of the same Dockerfile. */
	readonly from: string | undefined;
}

/** One RUN: its shell command and the ENV set before it in its stage. */
export interface DockerRun {
	readonly kind: 'run';
	readonly command: string;
	readonly env: Readonly<Record<string, string>>;
}

/** One FROM and what follows it, up to the next FROM. */
export interface DockerStage {
	/** `FROM <base> AS <name>`; undefined for a stage without a name. */
	readonly name: string | undefined;
	readonly base: string;
	/** COPY and RUN in the order a build runs them. */
	readonly steps: ReadonlyArray<DockerCopy | DockerRun>;
	/** ENV, every key, as the stage ends. */
	readonly env: Readonly<Record<string, string>>;
	/** ENTRYPOINT and CMD, in exec form. */
	readonly entrypoint: readonly string[];
	readonly cmd: readonly string[];
	readonly workdir: string;
	readonly user: string | undefined;
}

/** A Dockerfile's stages as a test needs them: what each holds and how the last one (the image) starts. */
export interface Dockerfile {
	readonly stages: readonly DockerStage[];
	/** The last stage: what `docker build` tags. */
	readonly image: DockerStage;
}

interface StageDraft {
	name: string | undefined;
	base: string;
	steps: Array<DockerCopy | DockerRun>;
	env: Record<string, string>;
	entrypoint: string[];
	cmd: string[];
	workdir: string;
	user: string | undefined;
}

/**
 * Reads the instructions each stage's contents and the image's start depend on, the way
 * `docker build` does: comments dropped, `\` continuations joined, ENTRYPOINT and CMD in JSON
 * (exec) form, `FROM … AS name` starting a stage that a later `COPY --from=name` reads. Throws on
 * what it does not know (an instruction, a COPY from an image rather than a stage, a WORKDIR
 * after the stage's first COPY or RUN), so a new one is read here before a test trusts the result.
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
	const stages: StageDraft[] = [];
	for (const line of lines) {
		const [instruction, rest = ''] = [line.slice(0, line.indexOf(' ')).toUpperCase(), line.slice(line.indexOf(' ') + 1).trim()];
		if (instruction === 'FROM') {
			const [base, as, name, ...more] = rest.split(/\s+/);
			if (as !== undefined && (as.toUpperCase() !== 'AS' || name === undefined || more.length > 0))
				throw new Error(`the Dockerfile has a FROM this reader does not read: ${line}`);
			stages.push({ name, base: base!, steps: [], env: {}, entrypoint: [], cmd: [], workdir: '/', user: undefined });
			continue;
		}
		const stage = stages.at(-1);
		if (stage === undefined) throw new Error(`the Dockerfile has an instruction before its first FROM: ${line}`);
		switch (instruction) {
			case 'WORKDIR':
				// One folder per stage: a test lays a stage out in one directory.
				if (stage.steps.length > 0) throw new Error(`the Dockerfile changes WORKDIR after a COPY or RUN: ${line}`);
				stage.workdir = rest;
				break;
			case 'USER':
				stage.user = rest;
				break;
			case 'COPY': {
				const parts = rest.split(/\s+/);
				const fromFlag = parts.find((part) => part.startsWith('--from='));
				const from = fromFlag?.slice('--from='.length);
				// A stage laid out earlier can be copied from; an image (or a stage's index) cannot.
				if (from !== undefined && !stages.slice(0, -1).some((earlier) => earlier.name === from)) {
					throw new Error(`the Dockerfile copies from something other than an earlier stage: ${line}`);
				}
				const paths = parts.filter((part) => !part.startsWith('--'));
				stage.steps.push({ kind: 'copy', sources: paths.slice(0, -1), destination: paths.at(-1)!, from });
				break;
			}
			case 'RUN':
				stage.steps.push({ kind: 'run', command: rest, env: { ...stage.env } });
				break;
			case 'ENV': {
				// Only the KEY=value form: `ENV KEY value` sets one key to the rest of the line.
				const pairs = [...rest.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)];
				if (pairs.map((pair) => pair[0]).join(' ') !== rest.replace(/\s+/g, ' '))
					throw new Error(`the Dockerfile has an ENV this reader does not read: ${line}`);
				for (const [, key, value] of pairs) stage.env[key!] = value!.replace(/^"|"$/g, '');
				break;
			}
			case 'ENTRYPOINT':
				stage.entrypoint = JSON.parse(rest) as string[];
				break;
			case 'CMD':
				stage.cmd = JSON.parse(rest) as string[];
				break;
			default:
				throw new Error(`the Dockerfile has an instruction this reader does not know: ${line}`);
		}
	}
	const image = stages.at(-1);
	if (image === undefined) throw new Error('the Dockerfile has no FROM');
	return { stages, image };
}
