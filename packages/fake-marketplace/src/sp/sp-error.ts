/** An SP-API error answer: `{ errors: [{ code, message, details }] }` with its status (every model's ErrorList). */
export class SpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details = '',
  ) {
    super(message);
  }

  /** `details` only when there are some: the models make it optional, and some (A+) forbid an empty one. */
  get body() {
    return { errors: [{ code: this.code, message: this.message, ...(this.details && { details: this.details }) }] };
  }
}

/** 400 InvalidInput naming what is wrong. */
export const invalidInput = (message: string) => new SpError(400, 'InvalidInput', message);
