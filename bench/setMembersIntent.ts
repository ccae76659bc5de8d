import type { SandboxControl } from '@massnick/discord-sandbox';

/**
 * Sets the Server Members intent (the developer portal's switch) of every app in the sandbox:
 * on for exactly `appIds`, off for the others. Each subject runs with the setup its design
 * needs: massnick (renaming or giving a role) with the boss's alone (what the product
 * recommends: its workers only change members), a baseline with its own tokens' (it fetches
 * every member through the gateway with GUILD_MEMBERS, which Discord refuses at identify without
 * the intent: close code 4014).
 *
 * Called before the subject starts: a bot reads its application's flags when it logs in.
 * @returns the names of the apps that have the intent now, as the sandbox reports them.
 */
export async function setMembersIntent(control: SandboxControl, appIds: readonly string[]): Promise<string[]> {
	const wanted = new Set(appIds);
	const { apps } = await control.state();
	for (const id of wanted) {
		if (!apps.some((app) => app.id === id)) throw new Error(`the sandbox has no application ${id}`);
	}
	for (const app of apps) {
		const enabled = wanted.has(app.id);
		if (app.membersIntent !== enabled) await control.faults({ membersIntent: { appId: app.id, enabled } });
	}
	const after = await control.state();
	const mismatch = after.apps.find((app) => app.membersIntent !== wanted.has(app.id));
	if (mismatch) throw new Error(`the sandbox kept the members intent of ${mismatch.name} ${mismatch.membersIntent ? 'on' : 'off'}`);
	return after.apps.filter((app) => app.membersIntent).map((app) => app.name);
}
