import type { MassnickJob } from './massnickJobs.js';
import type { SandboxProcess } from './SandboxProcess.js';

/** The interactions {@link invokeJob} made, filled in as it goes: what to look at when a job changes nobody. */
export interface Invocation {
	/** The command's interaction. */
	interactionId?: string;
	/** Start's, once pressed on the preview. */
	startId?: string;
}

/**
 * Runs a slash command as the guild's owner, as the member running it would: a changing job first
 * answers with its preview and changes nobody until Start is pressed, so Start is pressed; a dry
 * run, and a job in a guild below `preview.skipBelowMembers` (no preview), start with the command.
 *
 * @returns Unix ms just before Start was pressed; for a job without a preview, just before the command
 */
export async function invokeJob(
	sandbox: SandboxProcess,
	job: Pick<MassnickJob, 'command' | 'options'>,
	timeoutMs: number,
	invocation: Invocation = {},
): Promise<number> {
	const { control, info } = sandbox;
	const invokedAt = Date.now();
	const interactionId = await control.invoke(info.guildId, info.ownerId, job.command, job.options, info.channelId);
	invocation.interactionId = interactionId;
	if (job.options.dry_run === true) return invokedAt;
	const answered = await control.waitForResponses(interactionId, 2, timeoutMs);
	if (answered.originalMessageId === null) return invokedAt;
	const preview = await control.message(info.channelId, answered.originalMessageId);
	const start = preview.components.flatMap((row) => row.components ?? []).find((button) => button.custom_id?.endsWith(':start'));
	if (start?.custom_id === undefined) return invokedAt;
	const pressedAt = Date.now();
	invocation.startId = await control.pressButton(info.guildId, info.ownerId, info.channelId, preview.id, start.custom_id);
	return pressedAt;
}

/** The boss's answers to the command and to Start, cut short. */
export async function describeInvocation(sandbox: SandboxProcess, command: string, invocation: Invocation): Promise<string> {
	if (invocation.interactionId === undefined) return `/${command} was not invoked`;
	const interaction = await sandbox.control.interaction(invocation.interactionId);
	const started =
		invocation.startId === undefined
			? 'Start was not pressed'
			: `Start got: ${JSON.stringify((await sandbox.control.interaction(invocation.startId)).responses).slice(0, 500)}`;
	return `/${command} got: ${JSON.stringify(interaction.responses).slice(0, 1000)}; ${started}`;
}
