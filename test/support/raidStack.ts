import { PermissionFlagsBits, Routes } from 'discord.js';
import { type Stack, type StackOptions, startStack } from './startStack.js';
import { waitUntil } from './waitUntil.js';

/** One Bulk Guild Ban a worker sent: which worker, and the user ids of its body. */
export interface BulkBanCall {
	readonly worker: number;
	readonly ids: readonly string[];
}

export interface RaidStack {
	stack: Stack;
	/** Every bulk ban the workers sent, in order, read from their own REST clients' requests. */
	calls: BulkBanCall[];
	/** A role's id by name. */
	roleId: (name: string) => string;
}

/**
 * A stack whose workers may ban: their role (`Massnick`) gets Ban Members and Manage Guild, as
 * an operator would give it for /massban, and the test waits until every worker sees it. Each
 * worker's bulk bans are recorded from its REST client, body and all.
 */
export async function raidStack(options: StackOptions): Promise<RaidStack> {
	const stack = await startStack(options);
	try {
		const { guildId } = stack.sandbox;
		const roles = (await stack.control.state()).roles;
		const roleId = (name: string): string => roles.find((role) => role.name === name)!.id;
		const workersRole = roles.find((role) => role.name === 'Massnick')!;
		const banning = PermissionFlagsBits.BanMembers | PermissionFlagsBits.ManageGuild;
		await stack.control.editRole(guildId, workersRole.id, {
			permissions: String(BigInt(stack.sandbox.state.rolesById.get(workersRole.id)!.permissions) | banning),
		});
		await waitUntil(() => stack.massnick.fleet.workers.every((worker) => worker.hasPermission(banning)), {
			what: 'the workers to hold Ban Members and Manage Guild',
		});
		const calls: BulkBanCall[] = [];
		const route = Routes.guildBulkBan(guildId);
		for (const worker of stack.massnick.fleet.workers) {
			worker.client.rest.on('response', (request) => {
				if (request.method !== 'POST' || !request.path.endsWith(route)) return;
				const body = JSON.parse(String(request.options.body)) as { user_ids: string[] };
				calls.push({ worker: worker.index, ids: body.user_ids });
			});
		}
		return { stack, calls, roleId };
	} catch (error) {
		await stack.close();
		throw error;
	}
}
