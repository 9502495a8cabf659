declare module 'wink-bm25-text-search' {
  interface WinkBm25 {
    defineConfig(config: {
      fldWeights: Record<string, number>;
      bm25Params?: { k1?: number; b?: number };
    }): boolean;
    definePrepTasks(tasks: ((input: string) => string[])[]): number;
    addDoc(doc: Record<string, string>, id: string | number): number;
    consolidate(): boolean;
    search(text: string, limit?: number): [string, number][];
  }
  export default function winkBm25(): WinkBm25;
}
