/** Whether this run is CI's (CI=true or CI=1): what cannot run there fails instead of skipping. */
export declare const inCi: boolean;
