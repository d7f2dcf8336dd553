/** File names keep their spaces: Laravel's TrimStrings skips the files routes. */
export const untrimmed = { trimStrings: false } as const;
