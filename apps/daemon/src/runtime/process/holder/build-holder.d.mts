export declare function buildHolderProgram(entry: string): Promise<string>;
