import { ControlError } from './ControlError.js';
import type { ControlRoute } from './ControlRoute.js';
import { createInteraction, type InvokeCommandRequest } from './createInteraction.js';
import { pressButton, type PressButtonRequest } from './pressButton.js';
import { submitModal, type SubmitModalRequest } from './submitModal.js';

/** Running slash commands (with the files attached to them), pressing buttons, submitting modals, and seeing what the bot answered. */
export const interactionRoutes: ControlRoute[] = [
	{
		method: 'POST',
		path: '/interactions',
		handle({ ctx: { state }, body }) {
			return createInteraction(state, body as unknown as InvokeCommandRequest);
		},
	},
	{
		method: 'POST',
		path: '/interactions/component',
		handle({ ctx: { state }, body }) {
			return pressButton(state, body as unknown as PressButtonRequest);
		},
	},
	{
		method: 'POST',
		path: '/interactions/modal',
		handle({ ctx: { state }, body }) {
			return submitModal(state, body as unknown as SubmitModalRequest);
		},
	},
	{
		method: 'GET',
		path: '/attachments',
		handle({ ctx: { state } }) {
			return state.attachments.list();
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
