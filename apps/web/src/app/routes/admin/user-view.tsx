import { useNavigate, useParams } from 'react-router';
import { NotFoundPage } from '@/components/ui/screen-block';
import { UserView } from '@/features/admin-users/components/user-view';

export default function AdminUserViewRoute() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  if (!/^\d{1,10}$/.test(id)) return <NotFoundPage onBack={() => navigate(-1)} />;
  return <UserView key={id} id={Number(id)} />;
}
