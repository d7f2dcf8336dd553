/** Text made safe inside HTML text and quoted attributes: the five special characters as numeric references. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
