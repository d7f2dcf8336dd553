import { useNavigate } from 'react-router';
import { NotFoundPage } from '@/components/ui/screen-block';

export function NotFoundRoute() {
  const navigate = useNavigate();
  return <NotFoundPage onBack={() => navigate(-1)} />;
}
