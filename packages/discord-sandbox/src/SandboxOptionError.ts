/** One option that `startSandbox` or the CLI refused, named as the caller wrote it. */
export interface SandboxOptionProblem {
	option: string;
	message: string;
}

/** Thrown by `startSandbox` and the CLI when options are invalid; lists every problem at once. */
export class SandboxOptionError extends Error {
	public readonly code = 'SANDBOX_OPTION_INVALID';

	public constructor(public readonly problems: readonly SandboxOptionProblem[]) {
		super(problems.map((problem) => `${problem.option}: ${problem.message}`).join('\n'));
		this.name = 'SandboxOptionError';
	}
}
