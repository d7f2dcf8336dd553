export declare const serverDist: string;
export declare const serverEntry: string;
export declare function newestServerSource(): number;
export declare function serverBuildIsFresh(): boolean;
export declare function staysExternal(specifier: string, resolveDir: string): boolean;
export declare function buildServer(): Promise<void>;
