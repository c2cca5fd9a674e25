/** Recorded data sets (docs/backtest.md, "Recording"): events, the writer, the reader. */
export * from "./events.js";
export { Levels } from "./levels.js";
export { TABLES, type TableName, type ColumnSpec, type ColumnType } from "./tables.js";
export { DataSetReader, readDataSet, type EventCursor, type ReadOptions, type ReadStats, type SegmentOpener } from "./reader.js";
export { DataSetWriter, sealSegment, DEFAULT_ROTATE_BYTES, DEFAULT_ROTATE_MS, type SealInfo, type WriterOptions } from "./writer.js";
export { listSegments, readLineLog, segmentName, type SegmentFiles } from "./segments.js";
export { readTable, writeTable } from "./parquet.js";
export { readOrderRoundTrips, type RecordedRoundTrips } from "./latencies.js";
