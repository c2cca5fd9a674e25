/** `mm record`: the platform's market data for the selected markets, into a data set (src/data). */
export { Recorder, TRADES_PAGE, type RecorderOptions } from "./recorder.js";
export { DaemonRecording, roomBeyond, type DaemonRecordingOptions } from "./daemon-recording.js";
