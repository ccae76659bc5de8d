import { say, type Soak } from './Soak.js';
import { waitFor, waitForValue } from './waitForValue.js';

/**
 * The operator runs a command that starts a job, and runs it again when no job started (its
 * interaction lost to a fault on the way: Discord gives a bot 3 s to answer), as a person would.
 */
export async function operatorRuns(soak: Soak, command: string, options: Record<string, unknown>): Promise<void> {
	const { bots, control, info } = soak;
	const started = async (): Promise<number> => (await bots.log({ is: ['job started'] }, [bots.current])).length;
	for (let attempt = 1; ; attempt++) {
		const before = await started();
		await control.invoke(info.guildId, info.ownerId, command, options, info.channelId);
		const ran = await waitFor(async () => (await started()) > before, `/${command} to start a job`, 60_000).then(
			() => true,
			() => false,
		);
		if (ran) return;
		if (attempt === 3) throw new Error(`soak: /${command} started no job in ${attempt} tries (see ${bots.current.child.logFile})`);
		say(`    /${command} started no job; the operator runs it again`);
	}
}

/**
 * After a restart: the interrupted job goes on by itself (a job started in the new process's log
 * before anyone asked), or the bot says why it is not resumed (resumed too often in a short time,
 * which it takes for a crash loop; a /restore it leaves to the operator); then the operator runs
 * `command` again, and the journal makes it go on where it stopped.
 */
export async function resumeOrRerun(soak: Soak, command: string, options: Record<string, unknown>): Promise<void> {
	const { bots } = soak;
	const incarnation = bots.current;
	const outcome = await waitForValue(
		async () => (await bots.log({ is: ['job started'], contains: ['not resumed', 'could not resume'] }, [incarnation]))[0],
		'the bot to say whether it resumed the job',
		120_000,
	).catch(() => undefined);
	if (outcome?.msg === 'job started') return;
	const why = String(outcome?.reason ?? outcome?.msg ?? 'it said nothing of the job');
	soak.record.notResumed.push(why);
	say(`    not resumed (${why}); the operator runs /${command} again`);
	await operatorRuns(soak, command, options);
}
