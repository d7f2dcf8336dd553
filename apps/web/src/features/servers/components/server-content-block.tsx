import type { ReactNode } from 'react';
import { PageContentBlock } from '@/components/ui/page-content-block';
import { useServer } from '@/features/servers/hooks/use-server';

interface ServerContentBlockProps {
  title: string;
  showFlashKey?: string;
  actions?: ReactNode;
  children?: ReactNode;
}

/** The frame of a server page: its heading, and the tab title '<server name> | <page title>'. */
export function ServerContentBlock({ title, ...props }: ServerContentBlockProps) {
  const server = useServer();
  return <PageContentBlock title={title} documentTitle={`${server.name} | ${title}`} {...props} />;
}
