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

  get body() {
    return { errors: [{ code: this.code, message: this.message, details: this.details }] };
  }
}

/** 400 InvalidInput naming what is wrong. */
export const invalidInput = (message: string) => new SpError(400, 'InvalidInput', message);
