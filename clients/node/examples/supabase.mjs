// supabase-js with the machine's session: Sesame's ID token is the `accessToken` callback, so
// this process never holds (or rotates) a refresh token of its own.
//
//   npm install @supabase/supabase-js /usr/share/sesame/sesame-client-*.tgz   (or ./clients/node)
//   SUPABASE_URL=https://xyz.supabase.co SUPABASE_ANON_KEY=... node supabase.mjs
import { createClient } from '@supabase/supabase-js';
import { Sesame } from 'sesame-client';

const sesame = new Sesame();
const supabase = createClient(process.env.SUPABASE_URL, process.env.SUPABASE_ANON_KEY, {
  accessToken: async () => (await sesame.idToken()).token, // may be called concurrently: one refresh serves all
});

const { data, error } = await supabase.from(process.env.SUPABASE_TABLE ?? 'notes').select('*');
console.log(error ?? data);
sesame.close();
