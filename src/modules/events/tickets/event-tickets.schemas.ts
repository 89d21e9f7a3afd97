import { Type } from '@sinclair/typebox';
import { DataEnvelope, DateTime } from '../../../http/schema.js';

export const EventTicket = Type.Object(
  {
    ticket: Type.String({
      description: 'Pass it as `?ticket=` to GET /events/stream or /events/socket, once, before `expires_at`: it stands for the credential that asked for it.',
    }),
    expires_at: DateTime({ description: 'Thirty seconds after it was issued.' }),
  },
  {
    $id: 'EventTicket',
    examples: [{ ticket: 'tkt_Rk2m9Zq4VYb1xW7cTn0aLpE3sJ8uHgFd', expires_at: '2026-11-02T08:30:30.000Z' }],
  },
);

export const EventTicketResponse = DataEnvelope(Type.Ref(EventTicket));
