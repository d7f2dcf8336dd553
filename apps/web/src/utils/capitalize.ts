/** Upper-cases the first letter: validation messages are shown as sentences. */
export const capitalize = (text: string): string =>
  text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
