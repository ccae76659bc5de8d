import type { ControlMember } from '@massnick/discord-sandbox';
import { notRenamed } from '../../bench/soak/invariants.js';
import type { Stack } from './startStack.js';

/**
 * Members who should carry the name a job gives once it is over and, in the live guild, don't.
 *
 * "Should" is decided from the sandbox's members and roles, not from the job's own counts (which
 * would hide a rename the job counted but Discord never kept): every member still in the guild
 * but massnick's own bots and the owner, whose highest role is strictly below the workers' (the
 * lowest of their highest roles, as Discord's hierarchy rule and the planner have it). A member
 * is lost when their nickname is not `nameOf(member)`, as the soak's `notRenamed` has it.
 */
export async function lostMembers(stack: Pick<Stack, 'control' | 'sandbox' | 'massnick'>, nameOf: (member: ControlMember) => string): Promise<string[]> {
	const { control, sandbox, massnick } = stack;
	const [members, { roles }] = await Promise.all([control.members(sandbox.guildId), control.state()]);
	const positions = new Map(roles.map((role) => [role.id, role.position]));
	const highest = (member: ControlMember): number => Math.max(0, ...member.roles.map((role) => positions.get(role) ?? 0));
	const workerIds = new Set(massnick.fleet.workers.map((worker) => worker.client.user!.id));
	const ours = new Set(workerIds).add(massnick.boss.client.user!.id);
	const workerPosition = Math.min(...members.filter((member) => workerIds.has(member.id)).map(highest));
	const expected = members.filter((member) => !ours.has(member.id) && member.id !== sandbox.ownerId && highest(member) < workerPosition);
	return notRenamed(
		expected.map((member) => member.id),
		members,
		nameOf,
	);
}
