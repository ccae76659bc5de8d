/**
 * The bot user id a token belongs to. A Discord bot token's first part is its user id in
 * base64 (the sandbox makes its tokens the same way), and a bot's user id is its application's
 * id, which the control API names apps by. The benchmark never prints or stores the token.
 * @see https://discord.com/developers/docs/reference#authentication
 */
export function userIdOfToken(token: string): string {
	const [first = ''] = token.split('.');
	const id = Buffer.from(first, 'base64').toString('utf8');
	if (!/^\d{17,20}$/.test(id)) throw new Error('a token whose first part is not a user id in base64');
	return id;
}
