import type { Paginated } from '../common/pagination.js';
import type {
  HookDeliveryDetailDto, HookDeliveryDto, HookDeliveryListRequest, HookDeliveryRequest,
} from './delivery.dto.js';
import type {
  HookCreateRequest, HookDto, HookEditRequest, HookListRequest, HookRequest, HookTestRequest, RepositoryInitReply,
  RepositoryInitRequest,
} from './hook.dto.js';
import type { RpcPair } from '../rpc-contract.js';
import type { HooksSubjects } from './hooks.subjects.js';

export interface HooksRpc {
  [HooksSubjects.repositoryInit]: RpcPair<RepositoryInitRequest, RepositoryInitReply>;
  [HooksSubjects.webhookList]: RpcPair<HookListRequest, Paginated<HookDto>>;
  [HooksSubjects.webhookGet]: RpcPair<HookRequest, HookDto>;
  [HooksSubjects.webhookCreate]: RpcPair<HookCreateRequest, HookDto>;
  [HooksSubjects.webhookEdit]: RpcPair<HookEditRequest, HookDto>;
  [HooksSubjects.webhookDelete]: RpcPair<HookRequest, Record<string, never>>;
  [HooksSubjects.webhookTest]: RpcPair<HookTestRequest, HookDeliveryDto>;
  [HooksSubjects.deliveryList]: RpcPair<HookDeliveryListRequest, Paginated<HookDeliveryDto>>;
  [HooksSubjects.deliveryGet]: RpcPair<HookDeliveryRequest, HookDeliveryDetailDto>;
  [HooksSubjects.deliveryRedeliver]: RpcPair<HookDeliveryRequest, HookDeliveryDto>;
}
