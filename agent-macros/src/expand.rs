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
//! fn), a unit-like `struct add_habit {}` in the type namespace implementing `Tool` (so
//! `registry.tool::<add_habit>()` works), and in an anonymous `const` block: the argument
//! struct deriving `Deserialize` + `JsonSchema`, spanned trait assertions that put type errors
//! on the user's own tokens, the type-erased handler, and the `inventory` registration that
//! `Registry::discover` finds.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ItemFn;
use syn::spanned::Spanned;

use crate::ast::{Errors, Output, ToolFn};
use crate::attr::{Summary, ToolAttr};
use crate::valid;

pub(crate) fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let item: ItemFn = match syn::parse2(item.clone()) {
        Ok(item) => item,
        Err(_) => {
            let error = syn::Error::new(Span::call_site(), "#[tool] applies to `async fn` items")
                .to_compile_error();
            return quote!(#item #error);
        }
    };
    let mut errors = Errors::default();
    let attr = ToolAttr::parse(args).unwrap_or_else(|error| {
        errors.push(error);
        ToolAttr::default()
    });
    let tool = ToolFn::from_item(item, &mut errors);
    valid::check(&attr, &tool, &mut errors);
    match errors.into_result() {
        Ok(()) => generate(&attr, &tool),
        // Still emit the fn (without its parameter attributes), so the only errors shown are
        // ours and rust-analyzer keeps understanding the code.
        Err(error) => {
            let item = &tool.item;
            let error = error.to_compile_error();
            quote!(#item #error)
        }
    }
}

/// A closure over the call's JSON arguments in which `body` sees every argument by reference,
/// under its parameter name (`confirm_if` and computed summaries are written this way).
fn bound_closure(
    argument_idents: &[&syn::Ident],
    output: TokenStream,
    body: TokenStream,
    on_parse_error: TokenStream,
) -> TokenStream {
    let ac = quote!(::agent_core::__private);
    quote! {
        |__args: &#ac::serde_json::Value| -> #output {
            match #ac::parse_args::<__AgentToolArgs>(__args) {
                ::core::result::Result::Ok(__parsed) => {
                    #[allow(unused_variables)]
                    let __AgentToolArgs { #(#argument_idents),* } = &__parsed;
                    #body
                }
                ::core::result::Result::Err(_) => #on_parse_error,
            }
        }
    }
}

fn generate(attr: &ToolAttr, tool: &ToolFn) -> TokenStream {
    let ac = quote!(::agent_core::__private);
    let item = &tool.item;
    let fn_ident = &item.sig.ident;
    let vis = &item.vis;
    let (name, name_span) = valid::tool_name(attr, tool);
    let description = &tool.description;

    let fields = tool.arguments().map(|param| {
        let ident = &param.ident;
        let ty = &param.ty;
        let doc = param.description.as_deref().unwrap_or_default();
        let attrs = &param.passthrough;
        quote!(#[doc = #doc] #(#attrs)* #ident: #ty)
    });
    let argument_idents: Vec<_> = tool.arguments().map(|p| &p.ident).collect();
    let call_idents = tool.params.iter().map(|p| &p.ident);
    let injected_idents = tool.injected().map(|p| &p.ident);
    let injected_types: Vec<_> = tool.injected().map(|p| &p.ty).collect();

    // Each trait requirement is checked at exactly one place, spanned on the user's own
    // type, so one mistake gives one error pointing at it. (Argument types are checked by
    // the derives on the argument struct, whose fields carry the user's spans.)
    let injectors: Vec<_> = injected_types
        .iter()
        .enumerate()
        .map(|(i, ty)| {
            let ident = format_ident!("__agent_tool_injector_{}", i);
            let body = quote_spanned!(ty.span()=> #ac::injector::<#ty>());
            let item = quote!(fn #ident() -> #ac::Injector<#ty> { #body });
            (ident, item)
        })
        .collect();
    let injector_idents: Vec<_> = injectors.iter().map(|(ident, _)| ident).collect();
    let injector_items = injectors.iter().map(|(_, item)| item);
    let convert = match &tool.output {
        Output::Unit => quote!(#ac::unit_result(__output)),
        Output::Direct(ty) => quote_spanned!(ty.span()=> #ac::convert_output::<#ty>(__output)),
        Output::Plain(ty) => quote_spanned!(ty.span()=> #ac::convert_plain::<#ty>(__output)),
    };

    let label = attr.label.as_ref().map(|label| quote!(.label(#label)));
    let summary = attr.summary.as_ref().map(|summary| match summary {
        Summary::Template(template) => quote!(.summary(#template)),
        Summary::Expr(expr) => {
            let summarize = bound_closure(
                &argument_idents,
                quote!(::std::string::String),
                quote_spanned!(expr.span()=> ::std::string::ToString::to_string(&(#expr))),
                quote!(__args.to_string()),
            );
            quote!(.summary_fn(#summarize))
        }
    });
    let timeout = attr
        .timeout_ms
        .as_ref()
        .map(|ms| quote!(.timeout(::core::time::Duration::from_millis(#ms))));
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
        let provider = param.values.as_ref()?;
        let name = &param.wire_name;
        Some(quote_spanned!(provider.span()=> .values(#name, #provider)))
    });
    let reply = attr
        .reply
        .as_ref()
        .map(|expr| quote_spanned!(expr.span()=> .reply(#expr)));
    let copied = tool
        .arguments()
        .filter(|param| param.from_request)
        .map(|param| {
            let name = &param.wire_name;
            quote!(.from_request(#name))
        });
    let confirm_if = attr.confirm_if.as_ref().map(|expr| {
        // Unparsable arguments never reach the handler; asking is the safe answer.
        let predicate = bound_closure(&argument_idents, quote!(bool), quote!(#expr), quote!(true));
        quote!(.confirm_if(#predicate))
    });
    let source = {
        let line = quote_spanned!(fn_ident.span()=> ::core::line!());
        quote!(#ac::SourceLocation { module: ::core::module_path!(), file: ::core::file!(), line: #line })
    };
    let boxed = quote_spanned!(fn_ident.span()=> ::std::boxed::Box::pin);
    let struct_doc = format!(
        "The `#[tool]` declaration of [`{fn_ident}`](fn@{fn_ident}): pass it to `RegistryBuilder::tool` to register the tool `{name}`."
    );
    // Read in rustc's E0428 as "the name `…_is_used_twice` is defined multiple times".
    let name_guard = format_ident!("tool_name_{}_is_used_twice", name, span = name_span);
    let name_guard = quote_spanned! {name_span=>
        #[doc(hidden)]
        #[allow(non_upper_case_globals, dead_code)]
        const #name_guard: () = ();
    };

    quote! {
        #item

        #[doc = #struct_doc]
        #[allow(non_camel_case_types)]
        #vis struct #fn_ident {}

        // Two tools with one name in one module collide here at compile time; across modules
        // `RegistryBuilder::build` reports the clash with both locations.
        #name_guard

        const _: () = {
            #[derive(#ac::serde::Deserialize, #ac::schemars::JsonSchema)]
            #[serde(crate = "::agent_core::__private::serde")]
            #[schemars(crate = "::agent_core::__private::schemars")]
            struct __AgentToolArgs {
                #(#fields),*
            }

            #(#injector_items)*

            fn __agent_tool_handler(
                __call: #ac::CallContext,
            ) -> #ac::BoxFuture<'static, #ac::ToolResult> {
                #boxed(async move {
                    let __args: __AgentToolArgs = match #ac::parse_args(__call.args()) {
                        ::core::result::Result::Ok(args) => args,
                        ::core::result::Result::Err(error) => {
                            return ::core::convert::From::from(error);
                        }
                    };
                    #(
                        let #injected_idents = match (#injector_idents().from_call)(&__call) {
                            ::core::result::Result::Ok(dep) => dep,
                            ::core::result::Result::Err(error) => {
                                return ::core::convert::From::from(error);
                            }
                        };
                    )*
                    let __AgentToolArgs { #(#argument_idents),* } = __args;
                    let __output = #fn_ident(#(#call_idents),*).await;
                    #convert
                })
            }

            impl #ac::Tool for #fn_ident {
                const NAME: &'static str = #name;

                fn definition() -> ::core::result::Result<#ac::ToolDefinition, #ac::DefinitionError> {
                    #ac::ToolDefinition::builder(#name, #description)
                        #label
                        .schema(#ac::ToolSchema::of::<__AgentToolArgs>())
                        .destructive(#destructive)
                        #access
                        #(#examples)*
                        #(#values)*
                        #(#copied)*
                        #reply
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
    }
}
