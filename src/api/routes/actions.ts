import type { FastifyInstance } from 'fastify';
import { MktdataError } from '../../errors.ts';
import { apiError, named } from '../schemas/common.ts';

const security = [{ serviceApiKey: [] }];
const ApiNotImplementedResponse = named('ApiNotImplementedResponse', apiError);

/**
 * The actions endpoints of spec 000: a private beta that no organization of this server has joined, so each answers
 * 501 to a caller with a valid key, before its input is looked at (as the hosted service answers those without access).
 */
export async function actionRoutes(app: FastifyInstance) {
  const schema = { tags: ['Actions'], security, response: { 501: ApiNotImplementedResponse } };
  const refuse = async (): Promise<never> => {
    throw new MktdataError('ERR_ACTIONS_NOT_ENABLED');
  };
  app.post('/actions', { config: { auth: true }, schema }, refuse);
  app.get('/actions', { config: { auth: true }, schema }, refuse);
  app.get('/actions/:actionId', { config: { auth: true }, schema }, refuse);
}
