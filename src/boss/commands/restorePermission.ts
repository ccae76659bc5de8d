import { PermissionFlagsBits } from 'discord.js';

/** Who sees `/restore` and may press the buttons of a restore: members with Manage Nicknames. */
export const RESTORE_PERMISSION = PermissionFlagsBits.ManageNicknames;
