import type { MassnickJob } from './massnickJobs.js';
import type { SandboxProcess } from './SandboxProcess.js';

/** The interactions {@link invokeJob} made, filled in as it goes: what to look at when a job changes nobody. */
export interface Invocation {
	/** The command's interaction. */
	interactionId?: string;
	/** Start's, once pressed on the preview. */
	startId?: string;
	/** The typed count's, once submitted in the modal Start opened. */
	submitId?: string;
}

/** How a preview asks for its count typed at Start (a kick, a large ban): `… type the number of members it will change, **2,400**, in the box it opens`. */
const TYPED_COUNT = /type the number of members it will change, \*\*([\d,]+)\*\*, in the box it opens/;

/**
 * Runs a slash command as the guild's owner, as the member running it would: a changing job first
 * answers with its preview and changes nobody until Start is pressed, so Start is pressed, and
 * when the preview asks for its count typed (a kick, a ban of more than 100), the number it shows
 * is submitted in the modal Start opens; a dry run, and a job in a guild below
 * `preview.skipBelowMembers` (no preview), start with the command.
 *
 * @returns Unix ms just before the job was set going: Start pressed, or the typed count submitted;
 * for a job without a preview, just before the command
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
	const typed = TYPED_COUNT.exec([preview.content, ...preview.embeds.map((embed) => JSON.stringify(embed))].join('\n'))?.[1];
	const pressedAt = Date.now();
	const startId = await control.pressButton(info.guildId, info.ownerId, info.channelId, preview.id, start.custom_id);
	invocation.startId = startId;
	if (typed === undefined) return pressedAt;
	await control.waitForModal(startId, timeoutMs);
	const submittedAt = Date.now();
	invocation.submitId = await control.submitModal(startId, { count: typed.replaceAll(',', '') });
	return submittedAt;
}

/** The boss's answers to the command and to Start, cut short. */
export async function describeInvocation(sandbox: SandboxProcess, command: string, invocation: Invocation): Promise<string> {
	if (invocation.interactionId === undefined) return `/${command} was not invoked`;
	const interaction = await sandbox.control.interaction(invocation.interactionId);
	const answers = async (id: string): Promise<string> => JSON.stringify((await sandbox.control.interaction(id)).responses).slice(0, 500);
	const started = invocation.startId === undefined ? 'Start was not pressed' : `Start got: ${await answers(invocation.startId)}`;
	const submitted = invocation.submitId === undefined ? '' : `; the typed count got: ${await answers(invocation.submitId)}`;
	return `/${command} got: ${JSON.stringify(interaction.responses).slice(0, 1000)}; ${started}${submitted}`;
}
