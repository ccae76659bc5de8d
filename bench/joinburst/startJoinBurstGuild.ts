import { mkdir } from 'node:fs/promises';
import { PermissionFlagsBits } from 'discord.js';
import { SandboxProcess } from '../SandboxProcess.js';
import type { JoinBurstScenario } from './JoinBurstScenario.js';

/** A fresh sandbox guild, before its burst. */
export interface JoinBurstGuild {
	readonly sandbox: SandboxProcess;
	/** Every member's timeout end before the rule (Unix ms), or null: nobody outside the burst may change. */
	readonly timeoutsBefore: ReadonlyMap<string, number | null>;
}

/** The role the sandbox gives massnick's bots, the boss and every worker. */
const BOTS_ROLE = 'Massnick';

/**
 * Starts a sandbox in its own process with the scenario's members (generated from seed 1: every
 * account made before mid-2025, so years before a rule's day), its worker tokens, and its time
 * scale; gives the bots' role Moderate Members, as an operator would for timeouts; and reads
 * every member's timeout.
 */
export async function startJoinBurstGuild(scenario: JoinBurstScenario, logDir: string): Promise<JoinBurstGuild> {
	await mkdir(logDir, { recursive: true });
	const workers = Math.max(...scenario.subjects.map((subject) => subject.workers));
	const sandbox = await SandboxProcess.start({
		members: scenario.members,
		workers,
		timeScale: scenario.timeScale,
		seed: 1,
		logDir,
		startTimeoutMs: 60_000 + scenario.members / 10,
	});
	try {
		const { control, info } = sandbox;
		const role = (await control.state()).roles.find((candidate) => candidate.name === BOTS_ROLE);
		if (!role) throw new Error(`the sandbox guild has no role named ${BOTS_ROLE}`);
		await control.editRole(info.guildId, role.id, { permissions: String(BigInt(role.permissions) | PermissionFlagsBits.ModerateMembers) });
		const timeoutsBefore = new Map<string, number | null>();
		for (const member of await control.members(info.guildId))
			timeoutsBefore.set(member.id, member.communicationDisabledUntil === undefined ? null : Date.parse(member.communicationDisabledUntil));
		return { sandbox, timeoutsBefore };
	} catch (error) {
		await sandbox.stop();
		throw error;
	}
}
