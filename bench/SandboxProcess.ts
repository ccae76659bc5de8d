import { join } from 'node:path';
import { SandboxControl } from '@massnick/discord-sandbox';
import { NodeChild } from './NodeChild.js';
import { SANDBOX_SCRIPT } from './paths.js';
import { userIdOfToken } from './userIdOfToken.js';

/** The JSON line `npm run sandbox` prints once it listens. */
export interface SandboxInfo {
	apiUrl: string;
	controlUrl: string;
	guildId: string;
	ownerId: string;
	bossToken: string;
	workerTokens: string[];
	channelId: string;
}

export interface SandboxProcessOptions {
	members: number;
	workers: number;
	timeScale: number;
	seed: number;
	/** The share of members generated with a decorated name (`--decorated-names`); 0 or absent for none. */
	decoratedNames?: number;
	/** `--integration-limit`: bots the guild may hold, past Discord's 50 only for a study beyond one server. */
	integrationLimit?: number;
	/** `--worker-members-intent`: the workers' applications have the Server Members intent too. */
	workerMembersIntent?: boolean;
	logDir: string;
	/** Generating a million members takes some seconds on a busy machine. */
	startTimeoutMs: number;
}

/** The sandbox in a process of its own, so its work never counts against the bot's CPU or memory. */
export class SandboxProcess {
	readonly info: SandboxInfo;
	readonly control: SandboxControl;
	/** The boss's bot user id (also its application's id). */
	readonly bossId: string;
	/** The workers' bot user ids, in the order of {@link SandboxInfo.workerTokens}. */
	readonly workerIds: readonly string[];
	readonly #child: NodeChild;

	private constructor(child: NodeChild, info: SandboxInfo) {
		this.#child = child;
		this.info = info;
		this.control = new SandboxControl(info.controlUrl);
		this.bossId = userIdOfToken(info.bossToken);
		this.workerIds = info.workerTokens.map(userIdOfToken);
	}

	get pid(): number {
		return this.#child.pid;
	}

	static async start(options: SandboxProcessOptions): Promise<SandboxProcess> {
		const child = new NodeChild({
			name: `the sandbox (${options.members} members)`,
			script: SANDBOX_SCRIPT,
			args: [
				...['--members', String(options.members)],
				...['--workers', String(options.workers)],
				...['--port', '0'],
				...['--seed', String(options.seed)],
				...['--time-scale', String(options.timeScale)],
				...(options.decoratedNames ? ['--decorated-names', String(options.decoratedNames)] : []),
				...(options.integrationLimit === undefined ? [] : ['--integration-limit', String(options.integrationLimit)]),
				...(options.workerMembersIntent ? ['--worker-members-intent'] : []),
			],
			logFile: join(options.logDir, `sandbox-${options.members}.log`),
		});
		try {
			const line = await child.waitForLine((text) => text.trimStart().startsWith('{'), options.startTimeoutMs, 'where it listens');
			const info = JSON.parse(line) as SandboxInfo;
			if (typeof info.apiUrl !== 'string' || typeof info.controlUrl !== 'string' || !Array.isArray(info.workerTokens)) {
				throw child.failure(`printed an unexpected first line: ${line.slice(0, 200)}`);
			}
			if (info.workerTokens.length < options.workers) throw child.failure(`has ${info.workerTokens.length} workers, ${options.workers} asked for`);
			return new SandboxProcess(child, info);
		} catch (error) {
			await child.stop();
			throw error;
		}
	}

	/** An error about the sandbox, with the end of its log. */
	failure(message: string): Error {
		return this.#child.failure(message);
	}

	stop(): Promise<void> {
		return this.#child.stop();
	}
}
