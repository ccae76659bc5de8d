import { ControlError } from './ControlError.js';
import type { ControlRoute } from './ControlRoute.js';
import { createInteraction, type InvokeCommandRequest } from './createInteraction.js';

/** Running slash commands and seeing what the bot answered. */
export const interactionRoutes: ControlRoute[] = [
	{
		method: 'POST',
		path: '/interactions',
		handle({ ctx: { state }, body }) {
			return createInteraction(state, body as unknown as InvokeCommandRequest);
		},
	},
	{
		method: 'GET',
		path: '/interactions/:id',
		handle({ ctx: { state }, params }) {
			const interaction = state.interactions.get(params.id!);
			if (!interaction) throw new ControlError(404, `unknown interaction ${params.id}`);
			const { payload: _payload, token: _token, ...visible } = interaction;
			return visible;
		},
	},
];
