/** Durable progress of a named reader of the global log (relay, in-process consumer groups, projections). */
export interface CheckpointStore {
  /** Last handled global position; 0 when never saved. */
  load(name: string): Promise<number>;
  save(name: string, position: number): Promise<void>;
  /** Every checkpoint, for lag reports. */
  list(): Promise<{ name: string; position: number; updatedAt: string }[]>;
  reset(name: string): Promise<void>;
}
