import { NestsList } from '@/features/admin-nests/components/nests-list';

export default function AdminNestsRoute() {
  return <NestsList />;
}
