import { type APIActionRowComponent, type APIButtonComponent, ButtonStyle, ComponentType } from 'discord.js';
import { statusButtonId } from '../customIds.js';

/** The live status message's buttons: Cancel (for a job /cancel can stop) and Refresh. */
export function statusButtons(jobKey: string, cancel: boolean): APIActionRowComponent<APIButtonComponent> {
	const refresh: APIButtonComponent = {
		type: ComponentType.Button,
		style: ButtonStyle.Secondary,
		label: 'Refresh',
		custom_id: statusButtonId(jobKey, 'refresh'),
	};
	const stop: APIButtonComponent = { type: ComponentType.Button, style: ButtonStyle.Danger, label: 'Cancel', custom_id: statusButtonId(jobKey, 'cancel') };
	return { type: ComponentType.ActionRow, components: cancel ? [stop, refresh] : [refresh] };
}

/** The private "are you sure?" of the status message's Cancel: one button, for `userId` only. */
export function confirmCancelButtons(jobKey: string, userId: string): APIActionRowComponent<APIButtonComponent> {
	return {
		type: ComponentType.ActionRow,
		components: [{ type: ComponentType.Button, style: ButtonStyle.Danger, label: 'Yes, cancel the job', custom_id: statusButtonId(jobKey, 'confirm', userId) }],
	};
}
