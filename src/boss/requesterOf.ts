import type { BaseInteraction } from 'discord.js';
import type { Requester } from '../jobs/index.js';

/** Who ran a command or pressed a button, as the audit log and the journal name them. */
export function requesterOf(interaction: BaseInteraction): Requester {
	return { id: interaction.user.id, tag: interaction.user.tag };
}
