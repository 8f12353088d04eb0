//! Code generation. For
//!
//! ```text
//! /// Adds a habit.
//! #[tool(destructive, label = "습관 추가")]
//! async fn add_habit(store: Dep<HabitStore>, /// id
//!                    protocol_id: String) -> Result<Added, ToolError> { … }
//! ```
//!
//! it emits the fn unchanged (minus parameter attributes, so it stays an ordinary callable
//! fn), a struct `add_habit` in the type namespace implementing `Tool` (so
//! `registry.tool::<add_habit>()` works), and — inside that struct's one hidden field, see
//! [`tool_struct`] — the argument struct deriving `JsonSchema`, the fn reading each argument
//! into its type, spanned trait assertions that put type errors on the user's own tokens, the
//! type-erased handler, the output schema (decided on the return type by the type system),
//! and the `inventory` registration that `Registry::discover` finds. When
//! any stage recorded an error, [`fallback`](crate::fallback) emits the fn and stubs instead.
//!
//! Generated code is hygienic by naming, not by trust: the handler binds arguments to
//! `__agent_tool_arg_N` locals (so a parameter may share the fn's name), every path is fully
//! qualified through the crate's `__private` module, generated impls are
//! `#[automatically_derived]`, and `deprecated` is allowed inside (a `#[deprecated]` tool
//! warns its callers, not its own registration).

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::ItemFn;
use syn::spanned::Spanned;

use crate::ast::{Description, Output, ToolFn};
use crate::attr::{Summary, Timeout, ToolAttr};
use crate::classify::{ParamKind, ReturnSpelling};
use crate::ctxt::{Checked, Ctxt};
use crate::{fallback, valid};

pub(crate) fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let item: ItemFn = match syn::parse2(item.clone()) {
        Ok(item) => item,
        Err(_) => {
            let error = syn::Error::new(Span::call_site(), "#[tool] applies to `async fn` items")
                .to_compile_error();
            return quote!(#item #error);
        }
    };
    let cx = Ctxt::new();
    let attr = ToolAttr::parse(&cx, args);
    let krate = attr
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::agent_core));
    let tool = ToolFn::from_item(&cx, item, &krate);
    valid::check(&cx, &attr, &tool);
    match cx.check() {
        Checked::Clean => generate(&attr, &tool, &krate),
        Checked::Failed(errors) => fallback::expand(&attr, &tool, &krate, errors),
    }
}

/// A closure over the call's JSON arguments in which `body` sees every argument by reference,
/// under its parameter name (`confirm_if` and computed summaries are written this way).
fn bound_closure(
    ac: &TokenStream,
    argument_idents: &[&syn::Ident],
    output: TokenStream,
    body: TokenStream,
    on_parse_error: TokenStream,
) -> TokenStream {
    quote! {
        |__agent_tool_json: &#ac::serde_json::Value| -> #output {
            match __agent_tool_parse(__agent_tool_json) {
                ::core::result::Result::Ok(__agent_tool_parsed) => {
                    #[allow(unused_variables)]
                    let (#(#argument_idents,)*) = &__agent_tool_parsed;
                    #body
                }
                ::core::result::Result::Err(_) => #on_parse_error,
            }
        }
    }
}

/// `fn __agent_tool_parse(&Value) -> Result<(A, B, …), InvalidArguments>`: reads each argument
/// into its own type, each spanned on that type, so an argument type that cannot be
/// deserialized is one error on it (a derived `Deserialize` would report it three times, one
/// in generated code). A `deserialize_with` argument is read through a newtype carrying it.
/// Every read goes through agent-core's `ArgumentType` probe, which lets a `Dep` that was
/// taken for an argument (an alias without `#[dep]`) add no error to its schema's.
fn parse_fn(ac: &TokenStream, serde_crate: &str, tool: &ToolFn) -> TokenStream {
    let mut wrappers = Vec::new();
    let mut reads = Vec::new();
    let mut locals = Vec::new();
    let mut types = Vec::new();
    for (i, param) in tool.arguments().enumerate() {
        let ty = &param.ty;
        let json = &param.json_name;
        let local = format_ident!("__agent_tool_read_{}", i);
        let wrapper = param.attrs.deserialize_with.as_ref().map(|with| {
            let wrapper = format_ident!("__AgentToolWith{}", i);
            wrappers.push(quote! {
                #[derive(#ac::serde::Deserialize)]
                #[serde(crate = #serde_crate, transparent)]
                struct #wrapper(#[serde(#with)] #ty);
            });
            wrapper
        });
        let read_ty = match &wrapper {
            Some(wrapper) => quote!(#wrapper),
            None => quote!(#ty),
        };
        let default = param
            .attrs
            .default
            .as_ref()
            .map(|(_, call)| match &wrapper {
                Some(wrapper) => quote!(|| #wrapper(#call())),
                None => call.clone(),
            });
        // Through the probe, so that a `Dep` the macro took for an argument (an alias without
        // `#[dep]`) is refused once, by its schema, and not again here (agent-core `deps.rs`).
        let probe = quote_spanned!(ty.span()=> #ac::ArgumentType::<#read_ty>::PROBE);
        let read = match default {
            Some(default) => quote_spanned! {ty.span()=>
                #probe.read_or(&mut __agent_tool_reader, #json, #default)
            },
            None => quote_spanned!(ty.span()=> #probe.read(&mut __agent_tool_reader, #json)),
        };
        // With `#[schemars(with = …)]` the derive does not look at the type, so that check is
        // made here instead.
        if param.attrs.schemars_with {
            // Spanned from the type's first token to its last (our path too, which rustc
            // would otherwise underline at `#[tool]`), so the error underlines the type.
            let (first, last) = first_and_last_span(ty);
            let ac = respan(ac.clone(), first);
            let mut call = proc_macro2::Group::new(Delimiter::Parenthesis, TokenStream::new());
            call.set_span(last);
            reads.push(quote_spanned! {first=>
                #ac::ArgumentType::<#ty>::PROBE.refuse_injected #call;
            });
        }
        let unwrap = wrapper
            .is_some()
            .then(|| quote!(.map(|__agent_tool_with| __agent_tool_with.0)));
        reads.push(quote!(let #local = #read #unwrap;));
        locals.push(local);
        types.push(ty);
    }
    quote! {
        #(#wrappers)*

        fn __agent_tool_parse(
            __agent_tool_json: &#ac::serde_json::Value,
        ) -> ::core::result::Result<(#(#types,)*), #ac::InvalidArguments> {
            #[allow(unused_imports)]
            use #ac::ReadArgument as _;
            #[allow(unused_mut)]
            let mut __agent_tool_reader = #ac::ArgumentReader::new(__agent_tool_json);
            #(#reads)*
            match (#(#locals,)*) {
                (#(::core::option::Option::Some(#locals),)*) => ::core::result::Result::Ok((#(#locals,)*)),
                #[allow(unreachable_patterns)]
                _ => ::core::result::Result::Err(__agent_tool_reader.into_error()),
            }
        }
    }
}

/// The spans of the first and the last token of `tokens`.
fn first_and_last_span(tokens: &impl ToTokens) -> (Span, Span) {
    let tokens: Vec<TokenTree> = tokens.to_token_stream().into_iter().collect();
    let first = tokens.first().map_or_else(Span::call_site, TokenTree::span);
    let last = tokens.last().map_or(first, TokenTree::span);
    (first, last)
}

/// `tokens` with every span (delimiters included) set to `span`.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                let mut inner =
                    proc_macro2::Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = TokenTree::Group(inner);
            } else {
                token.set_span(span);
            }
            token
        })
        .collect()
}

fn generate(attr: &ToolAttr, tool: &ToolFn, krate: &syn::Path) -> TokenStream {
    let ac = quote!(#krate::__private);
    let crate_text = quote!(#krate).to_string().replace(' ', "");
    let serde_crate = format!("{crate_text}::__private::serde");
    let schemars_crate = format!("{crate_text}::__private::schemars");
    let item = &tool.item;
    let fn_ident = &item.sig.ident;
    let (name, name_span) = valid::tool_name(attr, tool);
    let description = &tool.description;

    let fields = tool.arguments().map(|param| {
        let ident = &param.ident;
        let ty = &param.ty;
        let doc = match &param.description {
            Description::Text(text) => quote!(#[doc = #text]),
            Description::Schemars | Description::Missing => quote!(),
        };
        let json = &param.json_name;
        // schemars reads `#[serde(rename, default)]` for the property name and `required`.
        let default = param
            .attrs
            .default
            .as_ref()
            .map(|(written, _)| quote!(#[serde(#written)]));
        let schemars = &param.attrs.schemars;
        quote!(#doc #[serde(rename = #json)] #default #(#schemars)* #ident: #ty)
    });
    let parse = parse_fn(&ac, &serde_crate, tool);
    // Every parameter gets a local of our own naming, so no parameter name can shadow the
    // fn being called (`async fn query(query: String)`).
    let locals: Vec<_> = (0..tool.params.len())
        .map(|i| format_ident!("__agent_tool_arg_{}", i))
        .collect();
    let argument_idents: Vec<_> = tool.arguments().map(|p| &p.ident).collect();
    let argument_locals: Vec<_> = tool
        .params
        .iter()
        .zip(&locals)
        .filter(|(p, _)| p.kind == ParamKind::Argument)
        .map(|(_, local)| local)
        .collect();
    let injected: Vec<_> = tool
        .params
        .iter()
        .zip(&locals)
        .filter(|(p, _)| p.kind == ParamKind::Injected)
        .collect();

    // Each trait requirement is checked at exactly one place, spanned on the user's own
    // type, so one mistake gives one error pointing at it. (Argument types are checked by
    // the derives on the argument struct, whose fields carry the user's spans.)
    let injectors: Vec<_> = injected
        .iter()
        .enumerate()
        .map(|(i, (param, _))| {
            let ty = &param.ty;
            let ident = format_ident!("__agent_tool_injector_{}", i);
            let body = quote_spanned!(ty.span()=> #ac::injector::<#ty>());
            let item = quote!(fn #ident() -> #ac::Injector<#ty> { #body });
            (ident, item)
        })
        .collect();
    let injector_idents: Vec<_> = injectors.iter().map(|(ident, _)| ident).collect();
    let injector_items = injectors.iter().map(|(_, item)| item);
    let injected_locals = injected.iter().map(|(_, local)| local);
    let convert = match &tool.output {
        Output::Unit => quote!(#ac::unit_result(__agent_tool_output)),
        Output::Value { ty, spelling } => {
            // The type system picks the conversion (see agent-core's `tool/returns.rs`); the
            // spelling only picks which error explains a type that has none.
            let finish = match spelling {
                ReturnSpelling::ResultLike => quote!(finish_result),
                ReturnSpelling::Plain => quote!(finish_plain),
            };
            // An error about the conversion points at the argument of `finish_*`; spanned from
            // the type's first token to its last, rustc underlines the whole return type.
            let (first, last) = first_and_last_span(ty);
            let ac = respan(ac.clone(), first);
            let finish = respan(finish, first);
            let mut call = proc_macro2::Group::new(Delimiter::Parenthesis, TokenStream::new());
            call.set_span(last);
            quote_spanned! {first=>
                {
                    #[allow(unused_imports)]
                    use #ac::{
                        ReturnOther as _, ReturnPlain as _, ReturnResult as _,
                        ReturnUnconverted as _,
                    };
                    #ac::#finish(#ac::Output::new(__agent_tool_output).__agent_tool_convert #call)
                }
            }
        }
    };

    // The output schema, decided by the type system like the conversion above (see
    // agent-core's `tool/returns.rs`). The return type is inferred from the fn item through
    // an `FnOnce` bound over the parameter types, not written out: `impl Serialize` cannot be
    // named, and inference handles it like any other type. A fn without a return type
    // answers `{}` and declares nothing.
    let output = match &tool.output {
        Output::Unit => quote!(),
        Output::Value { .. } => {
            let param_types = tool.params.iter().map(|param| &param.ty);
            quote! {
                let __agent_tool_schema = {
                    fn __agent_tool_returns<__F, __Fut>(
                        _: &__F,
                    ) -> #ac::Returns<<__Fut as ::core::future::Future>::Output>
                    where
                        __F: ::core::ops::FnOnce(#(#param_types),*) -> __Fut,
                        __Fut: ::core::future::Future,
                    {
                        #ac::Returns::new()
                    }
                    #[allow(unused_imports)]
                    use #ac::{
                        OutputOfConverting as _, OutputOfOther as _, OutputOfPlain as _,
                        OutputOfResult as _,
                    };
                    (&&&__agent_tool_returns(&#fn_ident)).__agent_tool_output(__agent_tool_schema)
                };
            }
        }
    };

    let label = attr.label.as_ref().map(|label| quote!(.label(#label)));
    let summary = attr.summary.as_ref().map(|summary| match summary {
        Summary::Template(template) => quote!(.summary(#template)),
        Summary::Expr(expr) => {
            let summarize = bound_closure(
                &ac,
                &argument_idents,
                quote!(::std::string::String),
                quote_spanned!(expr.span()=> ::std::string::ToString::to_string(&(#expr))),
                quote!(__agent_tool_json.to_string()),
            );
            quote!(.summary_fn(#summarize))
        }
    });
    let timeout = attr.timeout_ms.as_ref().map(|ms| {
        let ms = match ms {
            // The digits without the suffix: `5_000u32` is a number of milliseconds like any
            // other.
            Timeout::Literal(lit) => {
                let digits = syn::LitInt::new(lit.base10_digits(), lit.span());
                quote!(#digits)
            }
            // A constant: of type `u64` (a type error on the user's expression otherwise),
            // and above 0, both checked at compile time.
            Timeout::Const(expr) => quote_spanned!(expr.span()=> {
                const __AGENT_TOOL_TIMEOUT_MS: u64 = #expr;
                const _: () = ::core::assert!(
                    __AGENT_TOOL_TIMEOUT_MS > 0,
                    "`timeout_ms` must be greater than 0"
                );
                __AGENT_TOOL_TIMEOUT_MS
            }),
        };
        quote!(.timeout(::core::time::Duration::from_millis(#ms)))
    });
    let destructive = attr.is_destructive();
    let access = attr.access.map(|(variant, span)| {
        let variant = format_ident!("{}", variant, span = span);
        quote!(.access(#ac::Access::#variant))
    });
    let examples = attr.examples.iter().map(|example| {
        let request = &example.request;
        let args = match &example.args {
            Some(group) => quote_spanned!(group.span()=> #ac::serde_json::json!(#group)),
            None => quote!(#ac::serde_json::json!({})),
        };
        quote!(.example(#request, #args))
    });
    let values = tool.arguments().filter_map(|param| {
        let provider = param.attrs.values.as_ref()?;
        let name = &param.json_name;
        Some(quote_spanned!(provider.span()=> .values(#name, #provider)))
    });
    let reply = attr
        .reply
        .as_ref()
        .map(|expr| quote_spanned!(expr.span()=> .reply(#expr)));
    let undo = attr
        .undo
        .as_ref()
        .map(|expr| quote_spanned!(expr.span()=> .undo(#expr)));
    let constraints = tool.arguments().flat_map(|param| {
        let name = &param.json_name;
        param
            .attrs
            .constraints
            .iter()
            .map(move |attribute| quote!(.__expect_constraint(#name, #attribute)))
    });
    // `.from_request(name)` / `.composed(name)` for each argument marked so.
    let marked = |is_marked: fn(&crate::param_attr::ParamAttrs) -> bool, method: TokenStream| {
        tool.arguments()
            .filter(move |param| is_marked(&param.attrs))
            .map(move |param| {
                let name = &param.json_name;
                quote!(.#method(#name))
            })
    };
    let copied = marked(|attrs| attrs.from_request.is_some(), quote!(from_request));
    let composed = marked(|attrs| attrs.composed.is_some(), quote!(composed));
    let confirm_if = attr.confirm_if.as_ref().map(|expr| {
        // Unparsable arguments never reach the handler; asking is the safe answer.
        let predicate = bound_closure(
            &ac,
            &argument_idents,
            quote!(bool),
            quote!(#expr),
            quote!(true),
        );
        quote!(.confirm_if(#predicate))
    });
    let source = {
        let line = quote_spanned!(fn_ident.span()=> ::core::line!());
        quote!(#ac::SourceLocation { module: ::core::module_path!(), file: ::core::file!(), line: #line })
    };
    let boxed = quote_spanned!(fn_ident.span()=> ::std::boxed::Box::pin);
    // Read in rustc's E0428 as "the name `…_is_used_twice` is defined multiple times".
    let name_guard = format_ident!("tool_name_{}_is_used_twice", name, span = name_span);
    let name_guard = quote_spanned! {name_span=>
        #[doc(hidden)]
        #[allow(non_upper_case_globals, dead_code)]
        const #name_guard: () = ();
    };

    let inner = quote! {
        // Only its schema is used: the arguments are read by `__agent_tool_parse`.
        #[derive(#ac::schemars::JsonSchema)]
        #[schemars(crate = #schemars_crate)]
        #[allow(dead_code)]
        struct __AgentToolArgs {
            #(#fields),*
        }

        #parse

        #(#injector_items)*

        fn __agent_tool_handler(
            __agent_tool_call: #ac::CallContext,
        ) -> #ac::BoxFuture<'static, #ac::ToolResult> {
            #boxed(async move {
                let (#(#argument_locals,)*) = match __agent_tool_parse(__agent_tool_call.args()) {
                    ::core::result::Result::Ok(args) => args,
                    ::core::result::Result::Err(error) => {
                        return ::core::convert::From::from(error);
                    }
                };
                #(
                    let #injected_locals = match (#injector_idents().from_call)(&__agent_tool_call) {
                        ::core::result::Result::Ok(dep) => dep,
                        ::core::result::Result::Err(error) => {
                            return ::core::convert::From::from(error);
                        }
                    };
                )*
                let __agent_tool_output = #fn_ident(#(#locals),*).await;
                #convert
            })
        }

        // The impl sits inside the struct's field (see `tool_struct`); the type it is for is
        // the struct around it, so nothing outside the struct can be affected by its nesting.
        #[automatically_derived]
        #[allow(non_local_definitions)]
        impl #ac::Tool for #fn_ident {
            const NAME: &'static str = #name;

            fn definition() -> ::core::result::Result<#ac::ToolDefinition, #ac::DefinitionError> {
                let __agent_tool_schema = #ac::ToolSchema::of::<__AgentToolArgs>();
                #output
                #ac::ToolDefinition::builder(#name, #description)
                    #label
                    .schema(__agent_tool_schema)
                    .destructive(#destructive)
                    #access
                    #(#examples)*
                    #(#values)*
                    #(#copied)*
                    #(#composed)*
                    #(#constraints)*
                    #reply
                    #undo
                    #confirm_if
                    #summary
                    #timeout
                    #(.dependency(#injector_idents().dependency))*
                    .source(#source)
                    .handler(__agent_tool_handler)
                    .build()
            }
        }

        #ac::inventory::submit! {
            #ac::ToolRegistration {
                name: #name,
                definition: <#fn_ident as #ac::Tool>::definition,
                source: #source,
            }
        }
    };
    let tool_struct = tool_struct(item, &name, inner);

    quote! {
        #item

        #tool_struct

        // Two tools with one name in one module collide here at compile time; across modules
        // `RegistryBuilder::build` reports the clash with both locations.
        #name_guard
    }
}

/// The unit struct named like the fn (what `RegistryBuilder::tool::<add_habit>()` names),
/// carrying every other generated item inside the length of its one hidden field.
///
/// That odd home is deliberate: it makes the whole expansion besides the fn a single struct
/// item. Put on an associated fn inside an `impl`, where no struct may go, `#[tool]` then
/// yields rustc's one error "struct is not supported in `trait`s or `impl`s" (rustc drops
/// the struct with everything in it) instead of one error per generated item.
///
/// The price is paid by a fn named like a sibling module (`mod search {}` next to
/// `async fn search`): rustc reports E0428 "the name `search` is defined multiple times" at
/// the fn's name, keeps the module under that name, and so the `impl Tool for search` inside
/// can only find the module — one E0573 "expected type, found module" at the same place. No
/// spelling of that impl avoids it, since the struct is then unreachable by any path. Only a
/// hidden implementor plus an alias (`type search = __Hidden;`) would leave E0428 alone, and
/// that is two items: in an `impl` each becomes an error of its own (four in all), which is
/// the worse trade. So E0428, the first error, is the one that explains.
pub(crate) fn tool_struct(item: &ItemFn, name: &str, inner: TokenStream) -> TokenStream {
    let fn_ident = &item.sig.ident;
    let vis = &item.vis;
    let doc = format!(
        "The `#[tool]` declaration of [`{fn_ident}`](fn@{fn_ident}): pass it to `RegistryBuilder::tool` to register the tool `{name}`."
    );
    // Spanned on the fn's name, so rustc's errors about the struct (in an `impl`, or named
    // like a sibling module) point at it rather than at `#[tool]`.
    let header = respan(
        quote! {
            #[doc = #doc]
            #[allow(non_camel_case_types, dead_code, deprecated)]
            #vis struct
        },
        fn_ident.span(),
    );
    let mut body = proc_macro2::Group::new(
        Delimiter::Brace,
        quote! {
            #[doc(hidden)]
            __agent_tool: [(); {
                #inner
                0
            }],
        },
    );
    body.set_span(fn_ident.span());
    quote!(#header #fn_ident #body)
}
