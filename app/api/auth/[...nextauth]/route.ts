import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/options";

type RouteArgs = { params: Promise<{ nextauth: string[] }> };

// next-auth v4's App Router handler: sign-in (credentials), sign-out, session and CSRF token.
async function handler(req: NextRequest, args: RouteArgs): Promise<Response> {
  return NextAuth(req, args, getAuthOptions());
}

export { handler as GET, handler as POST };
