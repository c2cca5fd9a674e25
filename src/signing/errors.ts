/**
 * Errors raised before anything is signed or sent. `code` reuses the platform's error code where
 * one exists (`fee_too_high`, `invalid_outcome`, `invalid_tif`, `invalid_amounts`) so callers can
 * treat a local refusal like the rejection the platform would have sent. Messages never carry key
 * material: they name the variable, file or field at fault, not its value.
 */
export type SigningErrorCode =
  | "fee_too_high"
  | "fee_unknown"
  | "invalid_outcome"
  | "invalid_tif"
  | "invalid_amounts"
  | "invalid_expiration"
  | "invalid_address"
  | "invalid_field"
  | "invalid_domain"
  | "invalid_digest"
  | "bad_private_key"
  | "key_source_missing"
  | "key_file_too_open"
  | "signer_mismatch";

export class SigningError extends Error {
  override readonly name = "SigningError";
  constructor(
    readonly code: SigningErrorCode,
    message: string,
  ) {
    super(message);
  }
}
