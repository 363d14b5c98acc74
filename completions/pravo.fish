# fish completion for pravo.
# Generated from pravo's command tree by `pravo completion fish`; do not edit
# (npm run completions).
# Install: copy it to ~/.config/fish/completions/pravo.fish.

# The subcommands of a command path, as name<TAB>description lines.
function __pravo_commands
    switch $argv[1]
        case ''
            printf '%s\t%s\n' 'search' 'Search Bulgarian legal sources: ranked documents with their most rele…' 'doc' 'Print a full document: result N of the last search, or a document_id …' 'open' 'Open a document\'s link in the browser' 'cite' 'Check every citation of a memo: does the act exist, does it have the …' 'answer' 'Ask a question: a written answer in Bulgarian with cited, checkable s…' 'catalog' 'The values search filters take: source types, courts and judges' 'usage' 'Consumption against the monthly quotas' 'config' 'Profiles, API keys and settings' 'batch' 'Run many searches or questions from a file, within the quota, safe to…' 'login' 'Store the user-session token of the key and account commands, read fr…' 'logout' 'Forget the profile\'s stored user-session token' 'keys' 'API keys of the account: create, list, revoke, rotate' 'account' 'The account: plan, overage setting and unit prices' 'sandbox' 'Run a local Legal Research API over the local corpus: statutes, court…' 'completion' 'Print the shell completion script for bash, zsh or fish' 'help' 'show help for a command'
        case 'answer'
            printf '%s\t%s\n' 'wait' 'Wait for a recorded answer job to finish and print it' 'show' 'Fetch an answer job again and print it' 'list' 'List the answer jobs pravo has recorded, newest first, with their las…'
        case 'catalog'
            printf '%s\t%s\n' 'source-types' 'Source types for `pravo search --type`, with their number of documents' 'courts' 'Courts with their codes for `pravo search --court`, type, parent cour…' 'judges' 'Judges seen in the decisions of a court, with their number of decisio…' 'help' 'show help for a command'
        case 'config'
            printf '%s\t%s\n' 'set-key' 'Store the API key of a profile, read from a hidden prompt or from std…' 'show' 'Show the active profile with the key masked, and where each value com…' 'set' 'Set a setting: base-url, auth-header, sandbox, sandbox-corpus' 'unset' 'Remove a setting' 'path' 'Print the path of the config file' 'help' 'show help for a command'
        case 'keys'
            printf '%s\t%s\n' 'create' 'Create an API key; its full value is shown once' 'list' 'List the account\'s API keys' 'revoke' 'Revoke an API key' 'rotate' 'Replace the profile\'s key: create, store, confirm the new key, then r…' 'help' 'show help for a command'
        case 'account'
            printf '%s\t%s\n' 'overages' 'Allow overage up to a monthly limit, or deny it'
        case 'sandbox'
            printf '%s\t%s\n' 'serve' 'Start the sandbox server and print its base URL, a new API key and a …' 'token' 'Mint a user-session token of acct_sandbox for the key and account end…' 'import' 'Write acts of the National Assembly, saved payloads or fetched from i…' 'help' 'show help for a command'
    end
end

# The options of a command path, as flag<TAB>description lines.
function __pravo_options
    switch $argv[1]
        case ''
            printf '%s\t%s\n' '-V' 'print the version' '--version' 'print the version' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager' '-h' 'show help' '--help' 'show help'
        case 'search'
            printf '%s\t%s\n' '-t' 'source type from the catalog, e.g. bulgarian_laws_regulations' '--type' 'source type from the catalog, e.g. bulgarian_laws_regulations' '-c' 'court: its code from the catalog, a name or an abbreviation such as В…' '--court' 'court: its code from the catalog, a name or an abbreviation such as В…' '-j' 'reporting judge, approximate and case-insensitive' '--judge' 'reporting judge, approximate and case-insensitive' '--from' 'published on or after this date' '--to' 'published on or before this date' '-n' 'number of results, 1 to 50' '--max-results' 'number of results, 1 to 50' '--timeout' 'give up waiting after this many seconds' '--json' 'print the server\'s response exactly, as JSON' '--format' 'md: print the results as Markdown, a numbered list for a memo' '--out' 'with --format md: write the Markdown to FILE, atomically, instead of …' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'doc'
            printf '%s\t%s\n' '--collection' 'the collection of the search result the document_id comes from, exact…' '--article' 'print one article: 45, 45а, "Чл. 45", "§ 3", 4~2' '--paragraph' 'print one paragraph: ¶ N of a court decision' '--json' 'print the server\'s response exactly, as JSON' '--format' 'md: print the document' '--out' 'write the server\'s response' '--refresh' 'retrieve the document again even when it is cached' '--timeout' 'give up waiting after this many seconds' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'open'
            printf '%s\t%s\n' '--collection' 'the collection of the search result the document_id comes from, exact…' '--print' 'print the link instead of opening it' '--json' 'print {"url", "opened", "document_id", "collection"} as JSON' '--timeout' 'give up waiting for the document after this many seconds' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'cite'
            printf '%s\t%s\n' '--json' 'print pravo\'s report as JSON' '-y' 'send the searches and retrievals without asking' '--yes' 'send the searches and retrievals without asking' '--refresh' 'search and retrieve again even when cached' '--timeout' 'give up waiting for one request after this many seconds' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'answer'
            printf '%s\t%s\n' '-t' 'source type from the catalog, e.g. bulgarian_laws_regulations' '--type' 'source type from the catalog, e.g. bulgarian_laws_regulations' '-c' 'court: its code from the catalog, a name or an abbreviation such as В…' '--court' 'court: its code from the catalog, a name or an abbreviation such as В…' '-j' 'reporting judge, approximate and case-insensitive' '--judge' 'reporting judge, approximate and case-insensitive' '--from' 'sources published on or after this date' '--to' 'sources published on or before this date' '-n' 'sources to draw on, 1 to 50' '--max-results' 'sources to draw on, 1 to 50' '--no-wait' 'create the job, print its id and how to resume, and exit' '--timeout' 'give up creating the job after this many seconds' '--verify' 'check every cited passage against its full document' '-y' 'with --verify: retrieve the documents without asking' '--yes' 'with --verify: retrieve the documents without asking' '--json' 'print the final job exactly as the server sent it' '--format' 'md: print the answer as Markdown, its citations as footnotes' '--out' 'with --format md: write the Markdown to FILE, atomically, instead of …' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'answer wait'
            printf '%s\t%s\n' '--verify' 'check every cited passage against its full document' '-y' 'with --verify: retrieve the documents without asking' '--yes' 'with --verify: retrieve the documents without asking' '--json' 'print the final job exactly as the server sent it' '--format' 'md: print the answer as Markdown, its citations as footnotes' '--out' 'with --format md: write the Markdown to FILE, atomically, instead of …' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'answer show'
            printf '%s\t%s\n' '--verify' 'check every cited passage against its full document' '-y' 'with --verify: retrieve the documents without asking' '--yes' 'with --verify: retrieve the documents without asking' '--json' 'print the final job exactly as the server sent it' '--format' 'md: print the answer as Markdown, its citations as footnotes' '--out' 'with --format md: write the Markdown to FILE, atomically, instead of …' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'answer list'
            printf '%s\t%s\n' '-n' 'how many jobs to list' '--limit' 'how many jobs to list' '--json' 'print the records as a JSON array' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'catalog'
            printf '%s\t%s\n' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'catalog source-types'
            printf '%s\t%s\n' '--refresh' 'ask the server even when a cached copy' '--json' 'print the server\'s response exactly, as JSON' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'catalog courts'
            printf '%s\t%s\n' '--refresh' 'ask the server even when a cached copy' '--json' 'print the server\'s response exactly, as JSON' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'catalog judges'
            printf '%s\t%s\n' '--court' 'the court: a name' '--search' 'only judges whose name contains this text' '--limit' 'at most this many judges, 1 to 100' '--refresh' 'ask the server even when a cached copy' '--json' 'print the server\'s response exactly, as JSON' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'catalog help'
            printf '%s\t%s\n' 
        case 'usage'
            printf '%s\t%s\n' '--json' 'print the server\'s response exactly, as JSON' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'config'
            printf '%s\t%s\n' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'config set-key'
            printf '%s\t%s\n' '--stdin' 'read the key from standard input instead of prompting' '--json' 'print the result as one JSON object on stdout' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'config show'
            printf '%s\t%s\n' '--json' 'print the result as one JSON object on stdout' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'config set'
            printf '%s\t%s\n' '--json' 'print the result as one JSON object on stdout' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'config unset'
            printf '%s\t%s\n' '--json' 'print the result as one JSON object on stdout' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'config path'
            printf '%s\t%s\n' '--json' 'print the result as one JSON object on stdout' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'config help'
            printf '%s\t%s\n' 
        case 'batch'
            printf '%s\t%s\n' '-o' 'append the results here as JSON Lines, with a journal beside it' '--out' 'append the results here as JSON Lines, with a journal beside it' '--fetch-docs' 'also retrieve the top K documents of each result, through the documen…' '--answers' 'create an answer job per line and wait for each' '--concurrency' 'requests' '--allow-overage' 'send even when the plan needs more than the period has left; the batc…' '-y' 'go ahead without asking' '--yes' 'go ahead without asking' '--dry-run' 'print the plan' '--retry-interrupted' 'send again the lines that were in flight when an earlier run stopped' '--restart' 'begin anew although a journal of another input or mode is there; the …' '--timeout' 'give up a request after this many seconds' '--json' 'print the summary' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'login'
            printf '%s\t%s\n' '--stdin' 'read the token from standard input instead of prompting' '--no-verify' 'store the token without checking it with GET /v1/account' '--status' 'say whether a token is configured, where it comes from, and whether t…' '--json' 'print the result as one JSON object on stdout' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'logout'
            printf '%s\t%s\n' '--json' 'print the result as one JSON object on stdout' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'keys'
            printf '%s\t%s\n' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'keys create'
            printf '%s\t%s\n' '--name' 'what the key is for, 1 to 100 characters, e.g. ci-deploy' '--save-to-profile' 'store the new key in this profile instead of printing it' '--json' 'print the server\'s response' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'keys list'
            printf '%s\t%s\n' '--json' 'print the server\'s response exactly' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'keys revoke'
            printf '%s\t%s\n' '-y' 'revoke without asking' '--yes' 'revoke without asking' '--json' 'print the server\'s response' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'keys rotate'
            printf '%s\t%s\n' '--name' 'name of the new key' '-y' 'revoke the old key without asking, once the new one works' '--yes' 'revoke the old key without asking, once the new one works' '--json' 'print the outcome as one JSON object on stdout' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'keys help'
            printf '%s\t%s\n' 
        case 'account'
            printf '%s\t%s\n' '--json' 'print the server\'s response exactly' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'account overages'
            printf '%s\t%s\n' '--allow' 'allow consumption beyond the quotas' '--limit' 'overage units allowed per month, all kinds together' '--deny' 'deny consumption beyond the quotas: requests past a quota fail with m…' '-y' 'change it without asking' '--yes' 'change it without asking' '--json' 'print the server\'s response' '--sandbox' 'run against an in-process sandbox over the local corpus instead of th…' '--corpus' 'with --sandbox: a corpus file, a courts file, or a directory of them;…' '--data-dir' 'with --sandbox: where the sandbox keeps its index and state' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'sandbox'
            printf '%s\t%s\n' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'sandbox serve'
            printf '%s\t%s\n' '--host' 'interface to listen on' '--port' 'TCP port; 0 picks a free one' '--corpus' 'corpus file' '--data-dir' 'where to keep the index, keys, sessions, accounts and usage' '--quota' 'monthly quotas of this process, e.g. search=100,retrieval=20,answers=…' '--search-quota' 'alias of --quota search=N: searches a month, a whole number or unlimi…' '--retrieval-quota' 'alias of --quota retrieval=N: document retrievals a month, a whole nu…' '--answers-quota' 'alias of --quota answers=N: answer jobs a month, a whole number or un…' '--overage' 'store acct_sandbox\'s overage: off, or allowed up to N units a month b…' '--answer-delay' 'seconds from an answer job\'s creation to its answer, 0 to 3600, decim…' '--answer-failure-rate' 'probability, 0 to 1, that an answer job fails with answer_failed' '--auth-cache-ttl' 'seconds an accepted API key is accepted without reading the database …' '--search-workers' 'worker threads that run the searches, each with its own read-only con…' '--save-to-profile' 'save this start\'s base URL, key and session token into this profile' '--json' 'log to stderr as JSON lines {"time","message"}, and report errors as …' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'sandbox token'
            printf '%s\t%s\n' '--data-dir' 'the sandbox data directory whose state.sqlite receives the session' '--expires-in' 'lifetime: a whole number and s, m, h or d, e.g. 30m, 12h, 7d; at most…' '--save-to-profile' 'store the token as the session_token of this profile' '--json' 'print {"session_token","expires_at","account_id"}' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'sandbox import'
            printf '%s\t%s\n' '-o' 'the corpus file to write, ending in .jsonl or .jsonl.gz' '--out' 'the corpus file to write, ending in .jsonl or .jsonl.gz' '--id' 'an act to import, by its id in the API' '--concurrency' 'payloads read or fetched at once, 1 to 16' '--json' 'print {"out","imported","skipped"} on stdout, and report errors as JS…' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'sandbox help'
            printf '%s\t%s\n' 
        case 'completion'
            printf '%s\t%s\n' '-h' 'show help' '--help' 'show help' '--profile' 'configuration profile' '--no-color' 'no colours' '--no-pager' 'print long output directly instead of through the pager'
        case 'help'
            printf '%s\t%s\n' 
    end
end

# How the value of option $argv[2] of command path $argv[1] completes; nothing when it takes no value.
function __pravo_option_value
    switch "$argv[1] $argv[2]"
        case ' --profile'
            echo 'dynamic:profiles'
        case 'search -t'
            echo 'dynamic:source-types'
        case 'search --type'
            echo 'dynamic:source-types'
        case 'search -c'
            echo 'dynamic:courts'
        case 'search --court'
            echo 'dynamic:courts'
        case 'search -j'
            echo 'text'
        case 'search --judge'
            echo 'text'
        case 'search --from'
            echo 'text'
        case 'search --to'
            echo 'text'
        case 'search -n'
            echo 'text'
        case 'search --max-results'
            echo 'text'
        case 'search --timeout'
            echo 'text'
        case 'search --format'
            echo 'choices:md markdown'
        case 'search --out'
            echo 'file'
        case 'search --corpus'
            echo 'file'
        case 'search --data-dir'
            echo 'directory'
        case 'search --profile'
            echo 'dynamic:profiles'
        case 'doc --collection'
            echo 'text'
        case 'doc --article'
            echo 'text'
        case 'doc --paragraph'
            echo 'text'
        case 'doc --format'
            echo 'choices:md markdown'
        case 'doc --out'
            echo 'file'
        case 'doc --timeout'
            echo 'text'
        case 'doc --corpus'
            echo 'file'
        case 'doc --data-dir'
            echo 'directory'
        case 'doc --profile'
            echo 'dynamic:profiles'
        case 'open --collection'
            echo 'text'
        case 'open --timeout'
            echo 'text'
        case 'open --corpus'
            echo 'file'
        case 'open --data-dir'
            echo 'directory'
        case 'open --profile'
            echo 'dynamic:profiles'
        case 'cite --timeout'
            echo 'text'
        case 'cite --corpus'
            echo 'file'
        case 'cite --data-dir'
            echo 'directory'
        case 'cite --profile'
            echo 'dynamic:profiles'
        case 'answer -t'
            echo 'dynamic:source-types'
        case 'answer --type'
            echo 'dynamic:source-types'
        case 'answer -c'
            echo 'dynamic:courts'
        case 'answer --court'
            echo 'dynamic:courts'
        case 'answer -j'
            echo 'text'
        case 'answer --judge'
            echo 'text'
        case 'answer --from'
            echo 'text'
        case 'answer --to'
            echo 'text'
        case 'answer -n'
            echo 'text'
        case 'answer --max-results'
            echo 'text'
        case 'answer --timeout'
            echo 'text'
        case 'answer --format'
            echo 'choices:md markdown'
        case 'answer --out'
            echo 'file'
        case 'answer --corpus'
            echo 'file'
        case 'answer --data-dir'
            echo 'directory'
        case 'answer --profile'
            echo 'dynamic:profiles'
        case 'answer wait --format'
            echo 'choices:md markdown'
        case 'answer wait --out'
            echo 'file'
        case 'answer wait --corpus'
            echo 'file'
        case 'answer wait --data-dir'
            echo 'directory'
        case 'answer wait --profile'
            echo 'dynamic:profiles'
        case 'answer show --format'
            echo 'choices:md markdown'
        case 'answer show --out'
            echo 'file'
        case 'answer show --corpus'
            echo 'file'
        case 'answer show --data-dir'
            echo 'directory'
        case 'answer show --profile'
            echo 'dynamic:profiles'
        case 'answer list -n'
            echo 'text'
        case 'answer list --limit'
            echo 'text'
        case 'answer list --profile'
            echo 'dynamic:profiles'
        case 'catalog --profile'
            echo 'dynamic:profiles'
        case 'catalog source-types --corpus'
            echo 'file'
        case 'catalog source-types --data-dir'
            echo 'directory'
        case 'catalog source-types --profile'
            echo 'dynamic:profiles'
        case 'catalog courts --corpus'
            echo 'file'
        case 'catalog courts --data-dir'
            echo 'directory'
        case 'catalog courts --profile'
            echo 'dynamic:profiles'
        case 'catalog judges --court'
            echo 'dynamic:courts'
        case 'catalog judges --search'
            echo 'text'
        case 'catalog judges --limit'
            echo 'text'
        case 'catalog judges --corpus'
            echo 'file'
        case 'catalog judges --data-dir'
            echo 'directory'
        case 'catalog judges --profile'
            echo 'dynamic:profiles'
        case 'usage --corpus'
            echo 'file'
        case 'usage --data-dir'
            echo 'directory'
        case 'usage --profile'
            echo 'dynamic:profiles'
        case 'config --profile'
            echo 'dynamic:profiles'
        case 'config set-key --profile'
            echo 'dynamic:profiles'
        case 'config show --profile'
            echo 'dynamic:profiles'
        case 'config set --profile'
            echo 'dynamic:profiles'
        case 'config unset --profile'
            echo 'dynamic:profiles'
        case 'config path --profile'
            echo 'dynamic:profiles'
        case 'batch -o'
            echo 'file'
        case 'batch --out'
            echo 'file'
        case 'batch --fetch-docs'
            echo 'text'
        case 'batch --concurrency'
            echo 'text'
        case 'batch --timeout'
            echo 'text'
        case 'batch --corpus'
            echo 'file'
        case 'batch --data-dir'
            echo 'directory'
        case 'batch --profile'
            echo 'dynamic:profiles'
        case 'login --profile'
            echo 'dynamic:profiles'
        case 'logout --profile'
            echo 'dynamic:profiles'
        case 'keys --profile'
            echo 'dynamic:profiles'
        case 'keys create --name'
            echo 'text'
        case 'keys create --save-to-profile'
            echo 'dynamic:profiles'
        case 'keys create --corpus'
            echo 'file'
        case 'keys create --data-dir'
            echo 'directory'
        case 'keys create --profile'
            echo 'dynamic:profiles'
        case 'keys list --corpus'
            echo 'file'
        case 'keys list --data-dir'
            echo 'directory'
        case 'keys list --profile'
            echo 'dynamic:profiles'
        case 'keys revoke --corpus'
            echo 'file'
        case 'keys revoke --data-dir'
            echo 'directory'
        case 'keys revoke --profile'
            echo 'dynamic:profiles'
        case 'keys rotate --name'
            echo 'text'
        case 'keys rotate --profile'
            echo 'dynamic:profiles'
        case 'account --corpus'
            echo 'file'
        case 'account --data-dir'
            echo 'directory'
        case 'account --profile'
            echo 'dynamic:profiles'
        case 'account overages --limit'
            echo 'text'
        case 'account overages --corpus'
            echo 'file'
        case 'account overages --data-dir'
            echo 'directory'
        case 'account overages --profile'
            echo 'dynamic:profiles'
        case 'sandbox --profile'
            echo 'dynamic:profiles'
        case 'sandbox serve --host'
            echo 'text'
        case 'sandbox serve --port'
            echo 'text'
        case 'sandbox serve --corpus'
            echo 'file'
        case 'sandbox serve --data-dir'
            echo 'directory'
        case 'sandbox serve --quota'
            echo 'text'
        case 'sandbox serve --search-quota'
            echo 'text'
        case 'sandbox serve --retrieval-quota'
            echo 'text'
        case 'sandbox serve --answers-quota'
            echo 'text'
        case 'sandbox serve --overage'
            echo 'choices:off'
        case 'sandbox serve --answer-delay'
            echo 'text'
        case 'sandbox serve --answer-failure-rate'
            echo 'text'
        case 'sandbox serve --auth-cache-ttl'
            echo 'text'
        case 'sandbox serve --search-workers'
            echo 'text'
        case 'sandbox serve --save-to-profile'
            echo 'dynamic:profiles'
        case 'sandbox serve --profile'
            echo 'dynamic:profiles'
        case 'sandbox token --data-dir'
            echo 'directory'
        case 'sandbox token --expires-in'
            echo 'text'
        case 'sandbox token --save-to-profile'
            echo 'dynamic:profiles'
        case 'sandbox token --profile'
            echo 'dynamic:profiles'
        case 'sandbox import -o'
            echo 'file'
        case 'sandbox import --out'
            echo 'file'
        case 'sandbox import --id'
            echo 'text'
        case 'sandbox import --concurrency'
            echo 'text'
        case 'sandbox import --profile'
            echo 'dynamic:profiles'
        case 'completion --profile'
            echo 'dynamic:profiles'
    end
end

# How argument $argv[2] (counted from 0) of command path $argv[1] completes.
function __pravo_argument_value
    switch "$argv[1] $argv[2]"
        case 'search '0
            echo 'text'
        case 'doc '0
            echo 'dynamic:results'
        case 'open '0
            echo 'dynamic:results'
        case 'cite '0
            echo 'file'
        case 'answer '0
            echo 'text'
        case 'answer wait '0
            echo 'dynamic:unfinished-jobs'
        case 'answer show '0
            echo 'dynamic:jobs'
        case 'catalog help '0
            echo 'choices:source-types courts judges'
        case 'config set-key '0
            echo 'text'
        case 'config set '0
            echo 'choices:base-url auth-header sandbox sandbox-corpus'
        case 'config set '1
            echo 'dynamic:setting-values'
        case 'config unset '0
            echo 'choices:base-url auth-header sandbox sandbox-corpus api-key'
        case 'config help '0
            echo 'choices:set-key show set unset path'
        case 'batch '0
            echo 'file'
        case 'login '0
            echo 'text'
        case 'keys revoke '0
            echo 'dynamic:keys'
        case 'keys help '0
            echo 'choices:create list revoke rotate'
        case 'sandbox import '0
            echo 'directory'
        case 'sandbox help '0
            echo 'choices:serve token import'
        case 'completion '0
            echo 'choices:bash zsh fish'
        case 'help '0
            echo 'choices:search doc open cite answer catalog usage config batch login logout keys account sandbox completion'
        case 'search ''*'
            echo 'text'
        case 'answer ''*'
            echo 'text'
    end
end

# Prints the values of kind $argv[1] (see __pravo_option_value); $argv[2..] are the words typed before.
function __pravo_values
    set -l how $argv[1]
    set -l cur (commandline -ct)
    switch $how
        case file
            __fish_complete_path $cur
        case directory
            __fish_complete_directories $cur
        case 'choices:*'
            string split ' ' -- (string replace 'choices:' '' -- $how)
        case 'dynamic:*'
            set -l lines ($argv[2] __complete (string replace 'dynamic:' '' -- $how) $argv[3..-1] 2>/dev/null)
            if test "$lines[1]" = ':file'
                __fish_complete_path $cur
            else
                printf '%s\n' $lines
            end
    end
end

function __pravo_candidates
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l cmd_path ''
    set -l expect ''
    set -l position 0
    for word in $tokens[2..-1]
        if test -n "$expect"
            set expect ''
            continue
        end
        switch $word
            case '--' '-*=*'
            case '-?*'
                set -l how (__pravo_option_value "$cmd_path" $word)
                if test -n "$how"
                    set expect $word
                end
            case '*'
                if test $position -eq 0; and contains -- $word (__pravo_commands "$cmd_path" | string replace -r '\t.*' '')
                    set cmd_path (string trim -- "$cmd_path $word")
                else
                    set position (math $position + 1)
                end
        end
    end
    set -l how ''
    if test -n "$expect"
        set how (__pravo_option_value "$cmd_path" $expect)
    else if string match -q -- '--*=*' $cur
        set -l option (string replace -r '=.*' '' -- $cur)
        set how (__pravo_option_value "$cmd_path" $option)
        test -n "$how"; and __pravo_values $how $tokens | string replace -r '^' -- "$option="
        return
    else if string match -q -- '-*' $cur
        __pravo_options "$cmd_path"
        return
    else
        set -l commands (__pravo_commands "$cmd_path")
        if test $position -eq 0; and test (count $commands) -gt 0
            printf '%s\n' $commands
            return
        end
        set how (__pravo_argument_value "$cmd_path" $position)
    end
    test -n "$how"; and __pravo_values $how $tokens
end

complete -c pravo -f -a '(__pravo_candidates)'
