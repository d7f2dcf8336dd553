import { CreateServerForm } from '@/features/admin-servers/components/create-server-form';

export default function AdminServerNewRoute() {
  return <CreateServerForm />;
}
