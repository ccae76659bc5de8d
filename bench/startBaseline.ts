import { join } from 'node:path';
import { BASELINE_ENV } from './baselines/baselineChild.js';
import { NodeChild } from './NodeChild.js';
import { DESIGN_2021_SCRIPT, SINGLE_TOKEN_SCRIPT } from './paths.js';
import type { SandboxProcess } from './SandboxProcess.js';
import { CHANGES, type Subject } from './Subject.js';

export interface StartBaselineOptions {
	kind: 'single-token' | 'design-2021';
	sandbox: SandboxProcess;
	/** Worker tokens the 2021 design uses (the single-token loop uses the first alone). */
	workers: number;
	offsetMs: number;
	/** Nicknames are `${prefix} ${member id}`. */
	prefix: string;
	logDir: string;
	readyTimeoutMs: number;
}

/** Starts a baseline in its own process, so its memory is its own, and waits for its login. */
export async function startBaseline(options: StartBaselineOptions): Promise<Subject> {
	const { sandbox, kind } = options;
	const tokens = kind === 'single-token' ? 1 : options.workers;
	const child = new NodeChild({
		name: `the ${kind} baseline`,
		script: kind === 'single-token' ? SINGLE_TOKEN_SCRIPT : DESIGN_2021_SCRIPT,
		env: {
			[BASELINE_ENV.apiUrl]: sandbox.info.apiUrl,
			[BASELINE_ENV.guildId]: sandbox.info.guildId,
			[BASELINE_ENV.tokens]: sandbox.info.workerTokens.slice(0, tokens).join(','),
			[BASELINE_ENV.prefix]: options.prefix,
			[BASELINE_ENV.offsetMs]: String(options.offsetMs),
		},
		logFile: join(options.logDir, `${kind}.log`),
	});
	try {
		await child.waitForLine((line) => line.includes('"event":"ready"'), options.readyTimeoutMs, 'that it logged in');
	} catch (error) {
		await child.stop();
		throw error;
	}
	return {
		kind,
		pid: child.pid,
		tokens,
		workerIds: sandbox.workerIds.slice(0, tokens),
		change: CHANGES[kind],
		listedBy: null,
		get running() {
			return child.running;
		},
		async go() {
			const at = Date.now();
			child.send('go');
			return at;
		},
		async diagnose() {
			return `its last output:\n${child.recentLines.join('\n')}`;
		},
		failure: (message) => child.failure(message),
		stop: () => child.stop(),
	};
}
