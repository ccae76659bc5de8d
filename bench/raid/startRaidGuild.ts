import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { SandboxProcess } from '../SandboxProcess.js';
import type { RaidScenario } from './RaidScenario.js';

/** A fresh sandbox guild a raid has just joined. */
export interface RaidGuild {
	readonly sandbox: SandboxProcess;
	/** The raid accounts' ids, in join order. */
	readonly raidIds: readonly string[];
	readonly raid: ReadonlySet<string>;
	/** The sandbox's time scale: its rate-limit windows are Discord's ÷ this. */
	readonly timeScale: number;
}

/** The role the sandbox gives massnick's bots, the boss and every worker. */
const BOTS_ROLE = 'Massnick';
/** What a raid cleanup needs besides renaming: Ban Members and Manage Guild for a bulk ban, Moderate Members for a timeout. */
const RAID_PERMISSIONS = PermissionFlagsBits.BanMembers | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ModerateMembers;

/**
 * Starts a sandbox in its own process with the scenario's guild (its members less the raid and
 * the real joiners, generated from seed 1), gives the bots' role what a raid cleanup needs, as
 * an operator would, and stages the raid: `raidAccounts` accounts made minutes before joining,
 * named `free nitro <n>`, among `realJoiners` people with old accounts, all joining in the last
 * ten minutes (the sandbox's raid seed 0). Every guild of a run gets the same draw; the ids come
 * from the clock.
 */
export async function startRaidGuild(scenario: RaidScenario, logDir: string): Promise<RaidGuild> {
	const generated = scenario.members - scenario.raidAccounts - scenario.realJoiners;
	if (generated < 10)
		throw new Error(`${scenario.members} members cannot hold ${scenario.raidAccounts} raid accounts and ${scenario.realJoiners} real joiners`);
	await mkdir(logDir, { recursive: true });
	const sandbox = await SandboxProcess.start({
		members: generated,
		workers: scenario.workers,
		timeScale: scenario.timeScale,
		seed: 1,
		logDir,
		startTimeoutMs: 60_000 + scenario.members / 10,
	});
	try {
		const { control, info } = sandbox;
		const role = (await control.state()).roles.find((candidate) => candidate.name === BOTS_ROLE);
		if (!role) throw new Error(`the sandbox guild has no role named ${BOTS_ROLE}`);
		await control.editRole(info.guildId, role.id, { permissions: String(BigInt(role.permissions) | RAID_PERMISSIONS) });
		const { raidIds } = await control.stageRaid(info.guildId, { count: scenario.raidAccounts, realJoiners: scenario.realJoiners, seed: 0 });
		return { sandbox, raidIds, raid: new Set(raidIds), timeScale: scenario.timeScale };
	} catch (error) {
		await sandbox.stop();
		throw error;
	}
}

/** Where a run's sandbox and bot logs go: a folder of its own, since every sandbox names its log after its size. */
export function runLogDir(workDir: string, name: string): string {
	return join(workDir, name.replace(/[^\w-]+/g, '-'));
}
